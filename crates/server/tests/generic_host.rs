//! The server is a generic host: it serves the catalog it is given and names no game. A
//! new game touches its crate, one line of the catalog and its drawing module, never the
//! server's code or dependencies.

use std::path::Path;

/// The crates of the workspace that are games, boards or the list of them: every crate
/// but the engine, the hosts and the test helpers.
fn game_crates() -> Vec<String> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut names: Vec<String> = std::fs::read_dir(&crates)
        .expect("the workspace's crates")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| !["engine", "server", "cli", "testkit"].contains(&name.as_str()))
        .collect();
    names.sort();
    assert!(
        names.len() >= 8,
        "the games, topology, graphs, catalog: {names:?}"
    );
    names
}

fn rust_files(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn the_server_names_no_game_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the manifest");
    let dependencies = manifest
        .split("[dev-dependencies]")
        .next()
        .expect("a manifest");
    let mut sources = Vec::new();
    rust_files(&root.join("src"), &mut sources);
    for game in game_crates() {
        let package = format!("crosscap-{game}");
        assert!(
            !dependencies.contains(&package),
            "the server depends on {package}"
        );
        let identifier = format!("crosscap_{}", game.replace('-', "_"));
        for file in &sources {
            let text = std::fs::read_to_string(file).expect("a source file");
            assert!(
                !text.contains(&identifier),
                "{} names {identifier}",
                file.display()
            );
        }
    }
}
