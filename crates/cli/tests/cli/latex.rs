//! The LaTeX of every table command compiles with pdflatex (Debian's texlive-latex-base,
//! which .ci/run installs) without a line too wide for the page.

use std::path::Path;
use std::process::Command;

use crate::{crosscap, crosscap_with_input};

/// Whether `program --version` runs; when it does not, the test fails on CI (which installs
/// it) and is skipped with a reason elsewhere.
fn available(program: &str, package: &str) -> bool {
    if Command::new(program).arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{program} is missing on CI: .ci/run installs the Debian package {package}"
    );
    eprintln!("skipped: {program} is not installed (Debian package {package})");
    false
}

/// The connected graphs on 1 to 7 vertices, as nauty's geng writes them: 996 graph6
/// names, 251 of them with a character LaTeX reads as a command.
fn connected_graphs_to_seven_vertices() -> String {
    (1..=7)
        .map(|n| {
            let run = Command::new("nauty-geng")
                .args(["-cq", &n.to_string()])
                .output()
                .expect("geng runs");
            String::from_utf8(run.stdout).expect("graph6 is ASCII")
        })
        .collect()
}

/// The LaTeX a table command prints (exit status 0, or 3 for `unknown` rows).
fn latex(args: &[&str], stdin: &str) -> String {
    let mut args = args.to_vec();
    args.extend(["--format", "latex"]);
    let run = crosscap_with_input(&args, stdin);
    assert!(
        run.code == 0 || run.code == 3,
        "{args:?}: exit {} {}",
        run.code,
        run.stderr
    );
    assert!(
        run.stdout.contains("\\begin{longtable}"),
        "{args:?}: {}",
        run.stdout
    );
    run.stdout
}

#[test]
fn the_latex_of_every_table_command_compiles() {
    if !available("pdflatex", "texlive-latex-base") || !available("nauty-geng", "nauty") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("crosscap-latex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A board whose cell names hold every character LaTeX reads as a command.
    let board = dir.join("hemicube.json");
    std::fs::write(
        &board,
        r#"{"faces": [[0, 1, 2, 3], [0, 3, 1, 2], [0, 2, 3, 1]],
            "names": ["x_1{y}50%#2$", "a^b~c\\d&e", "[z]<w>|v|`q?`"]}"#,
    )
    .unwrap();
    let board = format!("file:{}", board.display());
    let graphs = connected_graphs_to_seven_vertices();
    assert_eq!(graphs.lines().count(), 996);
    let tables = [
        // Every graph6 name, each row `unknown` at once (one node per search).
        latex(&["sandpile", "classify", "--max-nodes", "1"], &graphs),
        latex(&["sandpile", "classify", "--summary"], "C~\nBw\n"),
        // Several graphs on stdin: a heading per graph, whose name LaTeX must not read.
        latex(
            &["edge-nim", "p-positions", "--graph", "-", "--max", "1"],
            "C^\nC~\nF?o|o\n",
        ),
        latex(&["manifold", "table", "--max-genus", "12"], ""),
        latex(&["nim", "p-positions", "--heaps", "3", "--max", "4"], ""),
        latex(
            &[
                "nim",
                "p-positions",
                "--heaps",
                "3",
                "--max",
                "4",
                "--count",
            ],
            "",
        ),
        latex(
            &[
                "edge-nim",
                "p-positions",
                "--graph",
                "tetrahedron",
                "--max",
                "2",
            ],
            "",
        ),
        latex(
            &[
                "edge-nim",
                "p-positions",
                "--graph",
                "K4",
                "--max",
                "2",
                "--count",
            ],
            "",
        ),
        latex(
            &["edge-nim", "grundy-table", "--graph", "C4", "--max", "1"],
            "",
        ),
        latex(
            &[
                "edge-nim",
                "grundy-table",
                "--graph",
                "C4",
                "--max",
                "1",
                "--count",
            ],
            "",
        ),
        // 15 edges and the value: too wide for one table.
        latex(
            &[
                "edge-nim",
                "grundy-table",
                "--graph",
                "petersen",
                "--max",
                "1",
                "--fix",
                "0-1=0,0-4=0,0-5=0,1-2=0,1-6=0,2-3=0,2-7=0,3-4=0,3-8=0",
            ],
            "",
        ),
        latex(
            &[
                "edge-nim",
                "slice",
                "--graph",
                "tetrahedron",
                "--fix",
                "c=9,A=6,C=7",
                "--free",
                "b",
                "--free",
                "B",
                "--max",
                "12",
            ],
            "",
        ),
        latex(
            &[
                "edge-nim", "slice", "--graph", "P4", "--fix", "0-1=5", "--free", "2-3", "--max",
                "9",
            ],
            "",
        ),
        latex(
            &[
                "euler-getter",
                "survey",
                "--board",
                "goldberg:1",
                "--board",
                "taylor:2",
            ],
            "",
        ),
        latex(
            &[
                "projective-hex",
                "solve",
                "--board",
                "taylor:2",
                "--all-openings",
            ],
            "",
        ),
        latex(&["board", "info", "taylor:3", "--cells"], ""),
        latex(&["board", "info", &board, "--cells"], ""),
    ];
    let document = format!(
        "\\documentclass{{article}}\n\\usepackage{{longtable,array}}\n\\begin{{document}}\n{}\
         \\end{{document}}\n",
        tables.join("\n")
    );
    std::fs::write(dir.join("tables.tex"), &document).unwrap();
    let compiled = pdflatex(&dir);
    let log = std::fs::read_to_string(dir.join("tables.log")).unwrap_or_default();
    assert!(compiled, "pdflatex failed:\n{}", errors(&log));
    assert!(
        !log.contains("Overfull \\hbox"),
        "a table is too wide:\n{}",
        errors(&log)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn pdflatex(dir: &Path) -> bool {
    Command::new("pdflatex")
        .current_dir(dir)
        .args(["-interaction=nonstopmode", "-halt-on-error", "tables.tex"])
        .output()
        .expect("pdflatex runs")
        .status
        .success()
}

/// The lines of a LaTeX log that report an error or a line too wide, with what follows.
fn errors(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter(|(_, line)| line.starts_with('!') || line.starts_with("Overfull"))
        .flat_map(|(i, _)| lines[i..(i + 4).min(lines.len())].iter().copied())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The fragment says what it needs, and a wide table keeps every column.
#[test]
fn a_wide_table_is_split_and_keeps_every_column() {
    let run = crosscap(&[
        "edge-nim",
        "p-positions",
        "--graph",
        "complete:6",
        "--max",
        "1",
        "--fix",
        "0-1=0,0-2=0,0-3=0,0-4=0,0-5=0,1-2=0,1-3=0,1-4=0,1-5=0",
        "--format",
        "latex",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("% needs \\usepackage{longtable,array}")
    );
    let tables = run.stdout.matches("\\begin{longtable}").count();
    assert!(tables >= 2, "{}", run.stdout);
    for edge in ["0-1", "2-3", "4-5"] {
        let math = edge.replace('-', "$-$");
        assert!(
            run.stdout.contains(&format!("${math}$")),
            "{edge}: {}",
            run.stdout
        );
    }
    assert_eq!(run.stdout.matches("row &").count(), tables);
}
