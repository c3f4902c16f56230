//! Lists every file of the page (`src/web/`, recursively) for `web.rs` to compile in, so
//! that a game's drawing module is served by being there: no list to keep by hand.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let root = Path::new("src/web");
    println!("cargo::rerun-if-changed=src/web");
    let mut files = Vec::new();
    collect(root, root, &mut files);
    files.sort();
    let mut out = String::from("&[\n");
    for name in &files {
        let content_type = match Path::new(name).extension().and_then(|e| e.to_str()) {
            Some("html") => "text/html; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("svg") => "image/svg+xml",
            Some("txt") => "text/plain; charset=utf-8",
            other => panic!("src/web/{name}: no content type for {other:?}"),
        };
        // The package's folder when the script runs, not when it was compiled: worktrees
        // sharing a target folder share this script's binary.
        let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it");
        let path = Path::new(&manifest_dir).join(root).join(name);
        writeln!(
            out,
            "    ({name:?}, {content_type:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a string");
    }
    out.push(']');
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("web_files.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

/// Every file below `dir`, as paths relative to `root` with `/` between parts.
fn collect(root: &Path, dir: &Path, files: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("src/web is readable") {
        let path = entry.expect("a directory entry").path();
        println!("cargo::rerun-if-changed={}", path.display());
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let relative = path.strip_prefix(root).expect("below the root");
            let parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            files.push(parts.join("/"));
        }
    }
}
