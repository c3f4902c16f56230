//! Long solves split into jobs: shards joined by `crosscap merge`, and a killed solve
//! resumed from its job directory, each giving the answer of the whole solve.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::{Run, crosscap_in};

/// A scratch directory of this test, empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crosscap-shards-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn solve(dir: &Path, board: &str, extra: &[&str]) -> Run {
    let mut args = vec![
        "--json",
        "projective-hex",
        "solve",
        "--board",
        board,
        "--all-openings",
    ];
    args.extend_from_slice(extra);
    crosscap_in(dir, &args, "")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The answer without what varies from run to run (nodes and times: the threads share
/// one table, so the nodes counted vary a little; the run's command line).
fn verdict(answer: &Value) -> Value {
    let mut answer = answer.clone();
    let keys = answer.as_object_mut().unwrap();
    for key in ["nodes", "millis", "run"] {
        keys.remove(key);
    }
    for opening in keys["openings"].as_array_mut().unwrap() {
        let opening = opening.as_object_mut().unwrap();
        opening.remove("nodes");
        opening.remove("millis");
    }
    answer
}

/// Two shards of an all-openings solve, merged, answer what the unsharded solve does:
/// the winner and winning replies of every class, and the nodes of every job added up.
#[test]
fn two_shards_merge_into_the_unsharded_answer() {
    for board in ["taylor:2", "goldberg:2"] {
        let dir = scratch(&board.replace(':', "-"));
        let whole = solve(&dir, board, &[]).json();
        let first = solve(&dir, board, &["--shard", "1/2"]).json();
        let second = solve(&dir, board, &["--shard", "2/2", "--out", "second.json"]).json();
        let default_name = format!(
            "projective-hex-{}-shard-1-of-2.json",
            board.replace(':', "-")
        );
        let files = [dir.join(&default_name), dir.join("second.json")];
        let mut jobs = Vec::new();
        for (file, printed) in files.iter().zip([&first, &second]) {
            let written = read_json(file);
            assert_eq!(
                written["results"], printed["results"],
                "{board}: printed as written"
            );
            assert_eq!(written["status"], "solved");
            jobs.extend(written["results"].as_array().unwrap().clone());
        }
        let total = first["jobs"].as_u64().unwrap() as usize;
        jobs.sort_by_key(|job| job["job"].as_u64());
        let numbers: Vec<usize> = jobs
            .iter()
            .map(|j| j["job"].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(
            numbers,
            (0..total).collect::<Vec<_>>(),
            "{board}: every job once"
        );

        let merged =
            crosscap_in(&dir, &["--json", "merge", &default_name, "second.json"], "").json();
        assert_eq!(verdict(&merged), verdict(&whole), "{board}");
        // Each shard records the budget of its jobs, and the merged answer states it.
        assert_eq!(first["budget"]["max_memory"], 512 << 20, "{first}");
        assert_eq!(first["budget"]["virtual_connections"], false, "{first}");
        assert_eq!(
            merged["budgets"],
            serde_json::json!([first["budget"]]),
            "{merged}"
        );
        let job_nodes: u64 = jobs.iter().map(|j| j["nodes"].as_u64().unwrap()).sum();
        assert_eq!(merged["nodes"].as_u64(), Some(job_nodes), "{board}");
        assert!(whole["nodes"].as_u64().unwrap() > 0);

        let merged_text = crosscap_in(&dir, &["merge", "second.json", &default_name], "");
        let whole_text = crosscap_in(
            &dir,
            &[
                "projective-hex",
                "solve",
                "--board",
                board,
                "--all-openings",
            ],
            "",
        );
        let table = |run: &Run| -> String {
            assert_eq!(run.code, 0, "{}", run.stderr);
            run.stdout
                .lines()
                .filter(|line| !line.contains(" nodes in "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(table(&merged_text), table(&whole_text), "{board}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A solve killed after some of its jobs restarts from its job directory: it solves only
/// the jobs the directory does not hold, ignores what a kill leaves half-written, and
/// answers what the uninterrupted solve does.
#[test]
fn a_killed_solve_resumes_from_its_finished_jobs() {
    let dir = scratch("resume");
    let jobs = dir.join("jobs");
    let jobs_arg = jobs.to_str().unwrap();
    let whole = solve(&dir, "goldberg:2", &[]).json();
    // The kill: half of the jobs finished (a shard's), one job's temporary file left.
    let half = solve(&dir, "goldberg:2", &["--shard", "1/2", "--jobs", jobs_arg]).json();
    let finished = half["results"].as_array().unwrap().len();
    std::fs::write(jobs.join(".job-1.4242.tmp"), "{\"game\": \"proj").unwrap();
    // A job that was solved before the kill is not solved again: its nodes, marked, stay.
    const MARK: u64 = 1_000_000_007;
    let marked_file = jobs.join("job-0.json");
    let mut marked = read_json(&marked_file);
    marked["result"]["nodes"] = MARK.into();
    std::fs::write(&marked_file, marked.to_string()).unwrap();

    let resumed = solve(&dir, "goldberg:2", &["--jobs", jobs_arg]);
    assert!(
        resumed
            .stderr
            .contains(&format!("{finished} jobs already solved")),
        "{}",
        resumed.stderr
    );
    let resumed = resumed.json();
    assert_eq!(verdict(&resumed), verdict(&whole));
    assert!(resumed["nodes"].as_u64().unwrap() > MARK, "{resumed}");
    let recorded = std::fs::read_dir(&jobs)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_str()
                .unwrap()
                .starts_with("job-")
        })
        .count();
    assert_eq!(
        recorded as u64,
        half["jobs"].as_u64().unwrap(),
        "every job recorded"
    );

    // Everything recorded: nothing is solved again, and the nodes are the recorded ones.
    let again = solve(&dir, "goldberg:2", &["--jobs", jobs_arg]).json();
    let again_more = solve(&dir, "goldberg:2", &["--jobs", jobs_arg]).json();
    assert_eq!(again["nodes"], again_more["nodes"]);
    assert_eq!(verdict(&again), verdict(&whole));

    // A job directory of another board is refused.
    let other = solve(&dir, "taylor:2", &["--jobs", jobs_arg]);
    other.assert_user_error("is a job of another solve");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Jobs solved without --virtual-connections are not reused by a restart with it (the
/// answer said `"virtual_connections": true` for jobs that never ran it), nor the other
/// way round: the restart is refused in one line.
#[test]
fn a_restart_under_other_flags_is_refused() {
    let dir = scratch("flags");
    let jobs = dir.join("jobs");
    let jobs_arg = jobs.to_str().unwrap();
    let first = solve(&dir, "taylor:2", &["--jobs", jobs_arg]).json();
    assert_eq!(first["virtual_connections"], false, "{first}");
    let with = solve(
        &dir,
        "taylor:2",
        &["--jobs", jobs_arg, "--virtual-connections"],
    );
    with.assert_user_error(
        "is a job solved without --virtual-connections, and this run is with \
         --virtual-connections: restart with the same flags or another --jobs directory",
    );
    assert_eq!(with.stderr.lines().count(), 1, "{}", with.stderr);
    // The same flags reuse every job.
    let again = solve(&dir, "taylor:2", &["--jobs", jobs_arg]);
    assert!(
        again.stderr.contains("jobs already solved"),
        "{}",
        again.stderr
    );
    let vc = dir.join("vc");
    let vc_arg = vc.to_str().unwrap();
    solve(
        &dir,
        "taylor:2",
        &["--jobs", vc_arg, "--virtual-connections"],
    )
    .json();
    solve(&dir, "taylor:2", &["--jobs", vc_arg])
        .assert_user_error("is a job solved with --virtual-connections, and this run is without");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Files that do not make one solve together are refused in one line, naming the cause.
#[test]
fn merge_refuses_files_that_are_not_one_solve() {
    let dir = scratch("refused");
    for (board, shard, out) in [
        ("taylor:2", "1/2", "t1.json"),
        ("taylor:2", "2/2", "t2.json"),
        ("taylor:2", "1/3", "t1of3.json"),
        ("goldberg:1", "1/1", "g.json"),
    ] {
        solve(&dir, board, &["--shard", shard, "--out", out]).json();
    }
    std::fs::write(dir.join("junk.json"), "{\"game\": 3}").unwrap();
    let mut edited = read_json(&dir.join("t2.json"));
    edited["results"][0]["id"] = "a1 a1".into();
    std::fs::write(dir.join("edited.json"), edited.to_string()).unwrap();
    let merge = |files: &[&str]| {
        let mut args = vec!["merge"];
        args.extend_from_slice(files);
        crosscap_in(&dir, &args, "")
    };
    merge(&["t1.json", "g.json"]).assert_user_error("are shards of different solves");
    merge(&["t1.json", "t1of3.json", "t2.json"])
        .assert_user_error("is in both t1.json and t1of3.json");
    let missing = merge(&["t2.json"]);
    missing.assert_user_error("12 of the 23 jobs are in no file given: 0, 2, 4,");
    merge(&["t1.json", "junk.json"]).assert_user_error("junk.json is no shard file");
    merge(&["t1.json", "edited.json"]).assert_user_error("shards of another version?");
    let joined = merge(&["t1.json", "t2.json"]);
    assert_eq!(joined.code, 0, "{}", joined.stderr);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A shard file written before the H-search's flag was recorded (no
/// `virtual_connections` key: it could not run it) merges with one that ran the H-search:
/// the answers are every shard's, `virtual_connections` is false (not every job ran it),
/// and each budget is named with its own flags.
#[test]
fn shards_with_and_without_the_h_search_merge() {
    let dir = scratch("h-search");
    let whole = solve(&dir, "taylor:2", &[]).json();
    solve(&dir, "taylor:2", &["--shard", "1/2", "--out", "old.json"]).json();
    let searched = solve(
        &dir,
        "taylor:2",
        &[
            "--shard",
            "2/2",
            "--out",
            "new.json",
            "--virtual-connections",
        ],
    )
    .json();
    assert_eq!(searched["budget"]["virtual_connections"], true);
    let mut old = read_json(&dir.join("old.json"));
    old["budget"]
        .as_object_mut()
        .unwrap()
        .remove("virtual_connections");
    std::fs::write(dir.join("old.json"), old.to_string()).unwrap();
    let merged = crosscap_in(&dir, &["--json", "merge", "old.json", "new.json"], "").json();
    assert_eq!(merged["virtual_connections"], false, "{merged}");
    let budgets = merged["budgets"].as_array().unwrap();
    assert_eq!(budgets.len(), 2, "{merged}");
    assert!(budgets[0].get("virtual_connections").is_none(), "{merged}");
    let mut expected = verdict(&whole);
    expected["budgets"] = merged["budgets"].clone();
    assert_eq!(verdict(&merged), expected);
    let text = crosscap_in(&dir, &["merge", "old.json", "new.json"], "");
    assert!(
        text.stdout.contains(
            "each reply under --max-seconds 600 --max-memory 512MiB, or --max-seconds 600 \
             --max-memory 512MiB with --virtual-connections\n"
        ),
        "{}",
        text.stdout
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--format` is the table of an all-openings solve, its shard's jobs included; a single
/// solve, which has no table, refuses it rather than print text under a CSV name.
#[test]
fn format_applies_to_the_openings_and_a_shards_jobs_only() {
    let dir = scratch("format");
    let shard = crosscap_in(
        &dir,
        &[
            "projective-hex",
            "solve",
            "--board",
            "taylor:2",
            "--all-openings",
            "--shard",
            "1/2",
            "--format",
            "csv",
        ],
        "",
    );
    assert_eq!(shard.code, 0, "{}", shard.stderr);
    assert!(
        shard.stdout.starts_with("job,move,winner,nodes,ms\n0,"),
        "{}",
        shard.stdout
    );
    assert!(!shard.stdout.contains("shard 1/2"), "{}", shard.stdout);
    for game in [
        &["projective-hex", "solve", "--board", "taylor:2"][..],
        &[
            "euler-getter",
            "solve",
            "--board",
            "goldberg:1",
            "--swap",
            "none",
        ],
    ] {
        crosscap_in(&dir, &[game, &["--format", "csv"]].concat(), "")
            .assert_user_error("--all-openings");
    }
}
