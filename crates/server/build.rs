//! Lists every file of the page (`src/web/`, recursively) for `web.rs` to compile in, so
//! that a game's drawing module is served by being there: no list to keep by hand. Each
//! file is compiled in gzipped as well, once here rather than on every request: three.js
//! (2 MB) goes out as a fifth of that to every browser that takes gzip.

use std::fmt::Write;
use std::io::Write as _;
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;

fn main() {
    let root = Path::new("src/web");
    println!("cargo::rerun-if-changed=src/web");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let gzipped_dir = Path::new(&out_dir).join("gzipped");
    std::fs::create_dir_all(&gzipped_dir).expect("OUT_DIR is writable");
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
        let text = std::fs::read(&path).expect("src/web is readable");
        let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(&text).expect("writing to memory");
        let gzipped = gzipped_dir.join(format!("{}.gz", name.replace('/', "__")));
        std::fs::write(&gzipped, encoder.finish().expect("writing to memory"))
            .expect("OUT_DIR is writable");
        writeln!(
            out,
            "    ({name:?}, {content_type:?}, include_str!({:?}), include_bytes!({:?})),",
            path.display().to_string(),
            gzipped.display().to_string()
        )
        .expect("writing to a string");
    }
    out.push(']');
    std::fs::write(Path::new(&out_dir).join("web_files.rs"), out).expect("OUT_DIR is writable");
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
