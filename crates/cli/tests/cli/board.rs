use crate::crosscap;

fn info(spec: &str) -> serde_json::Value {
    crosscap(&["--json", "board", "info", spec]).json()
}

#[test]
fn taylor_boards_are_projective_planes_with_six_pentagons() {
    for n in 2..=8u64 {
        let v = info(&format!("taylor:{n}"));
        assert_eq!(v["surface"], "projective plane", "{v}");
        assert_eq!(v["orientable"], false);
        assert_eq!(v["euler_characteristic"], 1);
        assert_eq!(v["cells"], 3 * n * n);
        assert_eq!(v["trivalent"], true);
        assert_eq!(v["cells_by_sides"]["5"], 6);
        assert_eq!(v["cells_by_sides"]["6"], 3 * n * n - 6);
        assert_eq!(v["vertices"], 6 * n * n - 2);
        assert_eq!(v["edges"], 9 * n * n - 3);
    }
}

#[test]
fn taylor_three_cell_list_has_the_seeds_neighbours() {
    let v = info("taylor:3");
    let cells = v["cell_list"].as_array().unwrap();
    assert_eq!(cells.len(), 27);
    assert_eq!(cells[0]["name"], "a1");
    let c1 = cells.iter().find(|c| c["name"] == "c1").unwrap();
    let mut neighbors: Vec<&str> = c1["neighbors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    neighbors.sort();
    assert_eq!(neighbors, ["b1", "c2", "d1", "d2", "d6", "e5"]);
    for key in [
        "spec",
        "surface",
        "orientable",
        "euler_characteristic",
        "vertices",
        "edges",
        "cells",
        "trivalent",
        "cell_list",
    ] {
        assert!(v.get(key).is_some(), "{key}");
    }
}

#[test]
fn goldberg_boards_have_five_k_squared_plus_one_cells() {
    for k in 1..=5u64 {
        let v = info(&format!("goldberg:{k}"));
        assert_eq!(v["cells"], 5 * k * k + 1);
        assert_eq!(v["surface"], "projective plane");
        assert_eq!(v["euler_characteristic"], 1);
        assert_eq!(v["trivalent"], true);
        assert_eq!(v["cells_by_sides"]["5"], 6);
        assert_eq!(v["cell_list"][0]["name"], "1");
        assert!(!v["split_cells"].as_array().unwrap().is_empty());
    }
}

#[test]
fn torus_and_klein_bottle_have_euler_characteristic_zero() {
    for size in ["2x3", "4x4", "6x9"] {
        let torus = info(&format!("torus:{size}"));
        assert_eq!(torus["euler_characteristic"], 0);
        assert_eq!(torus["orientable"], true);
        assert_eq!(torus["surface"], "torus");
        let klein = info(&format!("klein:{size}"));
        assert_eq!(klein["euler_characteristic"], 0);
        assert_eq!(klein["orientable"], false);
        assert_eq!(klein["surface"], "Klein bottle");
    }
}

#[test]
fn info_as_text_names_the_surface() {
    let run = crosscap(&["board", "info", "goldberg:3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("goldberg:3: projective plane (non-orientable, Euler characteristic 1)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("6 pentagons, 40 hexagons"));
    let table = crosscap(&["board", "info", "taylor:2", "--cells", "--format", "csv"]);
    assert!(
        table.stdout.contains("cell,sides,neighbors\n"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("\na1,5,"));
}

#[test]
fn show_draws_the_seeds_finished_game() {
    let run = crosscap(&[
        "board",
        "show",
        "taylor:3",
        "--position",
        ".XO/..XO/..OO./.XOX../XOX../XO..",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("   . X O\n  . . X O\n . . O O .\n. X O X . .\n X O X . .\n  X O . .\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("X to move"));
    let ghosts = crosscap(&[
        "--json",
        "board",
        "show",
        "taylor:3",
        "--ghosts",
        "--position",
        ".XO/..XO/..OO./.XOX../XOX../XO..",
    ])
    .json();
    let drawing = ghosts["drawing"].as_str().unwrap();
    assert!(drawing.starts_with("    - - o x\n"), "{drawing}");
    assert_eq!(ghosts["to_move"], "X");
    assert_eq!(ghosts["position"], ".XO/..XO/..OO./.XOX../XOX../XO..");
}

#[test]
fn show_lists_cells_of_boards_without_a_grid() {
    let run = crosscap(&["board", "show", "goldberg:1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.lines().count(), 6);
    assert!(run.stdout.starts_with("1 (5 sides): 2 3 4 5 6\n"));
}

#[test]
fn svg_writes_a_picture() {
    let run = crosscap(&[
        "board",
        "svg",
        "taylor:3",
        "--position",
        "X.O/..../...../....../...../....",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("<svg "));
    assert!(run.stdout.trim_end().ends_with("</svg>"));
    let path = std::env::temp_dir().join(format!("crosscap-board-{}.svg", std::process::id()));
    let path_text = path.display().to_string();
    let v = crosscap(&["--json", "board", "svg", "goldberg:4", "-o", &path_text]).json();
    assert_eq!(v["output"], path_text.as_str());
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("<title>goldberg:4</title>"));
    std::fs::remove_file(&path).unwrap();
    // A connected sum: each board with its rim, and the tube's mouth on each, numbered with
    // the other board.
    let sum = crosscap(&["board", "svg", "sum:taylor:3+torus:4x4"]);
    assert_eq!(sum.code, 0, "{}", sum.stderr);
    assert_eq!(sum.stdout.matches(r#"class="rim""#).count(), 2);
    assert!(sum.stdout.contains("<title>The tube to board 2</title>"));
    assert!(sum.stdout.contains("<title>The tube to board 1</title>"));
}

/// The seed's finished game with O's global loop (as `projective-hex winner` names it)
/// outlined: seven cells, the rim ones with their ghosts too.
#[test]
fn svg_marks_a_winning_loop() {
    let position = ".XO/..XO/..OO./.XOX../XOX../XO..";
    let winner = crosscap(&["--json", "projective-hex", "winner", "--position", position]).json();
    let cells: Vec<&str> = winner["loop"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(cells.len(), 7, "{winner}");
    let marked = cells.join(" ");
    let run = crosscap(&[
        "board",
        "svg",
        "taylor:3",
        "--position",
        position,
        "--mark",
        &marked,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let group = run
        .stdout
        .split(r#"<g class="marked""#)
        .nth(1)
        .and_then(|rest| rest.split("</g>").next())
        .expect("the marked cells' group");
    assert!(group.matches("<polygon").count() > 7, "{group}");
    crosscap(&["board", "svg", "taylor:3", "--mark", "a3,zz"]).assert_user_error("no cell \"zz\"");
}

#[test]
fn board_files_work_end_to_end() {
    let dir = std::env::temp_dir().join(format!("crosscap-board-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The hemi-cube: three squares on the projective plane.
    let good = dir.join("hemicube.json");
    std::fs::write(
        &good,
        r#"{"faces": [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1]], "names": ["x", "y", "z"]}"#,
    )
    .unwrap();
    let v = info(&format!("file:{}", good.display()));
    assert_eq!(v["surface"], "projective plane");
    assert_eq!(v["cells"], 3);
    assert_eq!(v["cell_list"][1]["name"], "y");
    // The same with a square missing has edges on one face side only.
    let open = dir.join("open.json");
    std::fs::write(&open, r#"{"faces": [[0, 1, 2, 3], [0, 3, 1, 2]]}"#).unwrap();
    crosscap(&["board", "info", &format!("file:{}", open.display())])
        .assert_user_error("every edge must lie on exactly 2");
    let broken = dir.join("broken.json");
    std::fs::write(&broken, r#"{"faces": [[0, 1, 2"#).unwrap();
    crosscap(&["board", "info", &format!("file:{}", broken.display())])
        .assert_user_error("not valid board JSON");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Positions too far out to draw are refused in one line (`inf` was written into the
/// SVG, exit 0); positions in range still draw.
#[test]
fn svg_refuses_positions_out_of_range() {
    let dir = std::env::temp_dir().join(format!("crosscap-board-far-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let board = |name: &str, first: &str| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            format!(
                r#"{{"faces": [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1]],
                    "positions": {{"0": {first}, "1": [0, 0], "2": [1, 0], "3": [0, 1]}}}}"#
            ),
        )
        .unwrap();
        format!("file:{}", path.display())
    };
    for (name, first) in [
        ("far.json", "[1e308, -1e308]"),
        ("big.json", "[1e300, 1e300]"),
        ("beyond.json", "[2e6, 0]"),
    ] {
        let run = crosscap(&["board", "svg", &board(name, first)]);
        run.assert_user_error("cannot be drawn: its positions reach beyond 1e6 from the origin");
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(!run.stdout.contains("inf"), "{}", run.stdout);
    }
    let near = crosscap(&["board", "svg", &board("near.json", "[1000, -1000]")]);
    assert_eq!(near.code, 0, "{}", near.stderr);
    assert!(near.stdout.starts_with("<svg"), "{}", near.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn malformed_specs_and_positions_are_user_errors() {
    crosscap(&["board", "info", "hexagon:3"]).assert_user_error("unknown board spec");
    crosscap(&["board", "info", "taylor:1"]).assert_user_error("between 2 and 40");
    crosscap(&["board", "info", "goldberg:k"]).assert_user_error("not a whole number");
    crosscap(&["board", "info", "torus:5x5"]).assert_user_error("even");
    crosscap(&["board", "info", "file:/no/such/file.json"]).assert_user_error("cannot read");
    crosscap(&["board", "show", "taylor:2", "--position", "XX"])
        .assert_user_error("cell b1 is missing");
    crosscap(&["board", "show", "taylor:2", "--position", "..Q"]).assert_user_error("'Q'");
    crosscap(&["board", "svg", "taylor:2", "--position", "OO.........."])
        .assert_user_error("the position has 0 X stones and 2 O stones");
}

/// `board info --json` carries the whole cell complex: V − E + F recomputed from its faces
/// alone is the reported χ, its edges are the faces' consecutive vertices, and read back as
/// a board file it is the same surface.
#[test]
fn the_cell_complex_recomputes_the_euler_characteristic() {
    let dir = std::env::temp_dir().join(format!("crosscap-board-complex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for spec in [
        "taylor:2",
        "taylor:5",
        "goldberg:1",
        "goldberg:3",
        "torus:4x6",
        "klein:4x5",
    ] {
        let v = info(spec);
        let complex = &v["complex"];
        let faces: Vec<Vec<u64>> = serde_json::from_value(complex["faces"].clone()).unwrap();
        let mut vertices = std::collections::BTreeSet::new();
        let mut edges = std::collections::BTreeSet::new();
        for face in &faces {
            for (i, &a) in face.iter().enumerate() {
                let b = face[(i + 1) % face.len()];
                vertices.insert(a);
                edges.insert((a.min(b), a.max(b)));
            }
        }
        let chi = vertices.len() as i64 - edges.len() as i64 + faces.len() as i64;
        assert_eq!(chi, v["euler_characteristic"].as_i64().unwrap(), "{spec}");
        assert_eq!(
            vertices.len() as u64,
            v["vertices"].as_u64().unwrap(),
            "{spec}"
        );
        assert_eq!(faces.len() as u64, v["cells"].as_u64().unwrap(), "{spec}");
        let listed: std::collections::BTreeSet<(u64, u64)> = complex["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                let (a, b) = (
                    e["ends"][0].as_u64().unwrap(),
                    e["ends"][1].as_u64().unwrap(),
                );
                (a.min(b), a.max(b))
            })
            .collect();
        assert_eq!(listed, edges, "{spec}");
        let file = dir.join("board.json");
        let board_file = serde_json::json!({"faces": faces, "names": complex["names"]});
        std::fs::write(&file, board_file.to_string()).unwrap();
        let again = info(&format!("file:{}", file.display()));
        for key in [
            "surface",
            "euler_characteristic",
            "vertices",
            "edges",
            "cells",
        ] {
            assert_eq!(again[key], v[key], "{spec}: {key}");
        }
        assert_eq!(again["cell_list"], v["cell_list"], "{spec}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
