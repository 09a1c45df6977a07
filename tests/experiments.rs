//! The research workflows: encode batches and DIMSPEC, sweeps with CSV and SVG, bench
//! runs with CSV/JSON and comparison.

mod common;

use common::satsoko;
use std::process::Command;

const LEVELS: &str = "\
; a
#######
#@ $ .#
#######

; b
######
#    #
#@$$ #
# .. #
######

; stuck
#####
#@.$#
#####
";

fn levels() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("levels.xsb");
    std::fs::write(&file, LEVELS).unwrap();
    let f = file.to_str().unwrap().to_string();
    (dir, f)
}

#[test]
fn encode_writes_a_pddl_problem_and_its_domain_and_refuses_ice() {
    let (dir, file) = levels();
    let domain = dir.path().join("domain.pddl");
    let out = satsoko(&[
        "encode",
        &file,
        "--level",
        "2",
        "--pddl",
        "--pddl-domain",
        domain.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(define (problem sokoban-levels-2)"));
    assert!(text.contains("(:domain sokoban-sequential)"));
    assert_eq!(text.matches(" - stone").count(), 2);
    assert!(text.contains("(:metric minimize (total-cost))"));
    let domain = std::fs::read_to_string(&domain).unwrap();
    assert!(domain.contains("(define (domain sokoban-sequential)"));
    assert!(domain.contains("(:action push-to-goal"));

    let ice = dir.path().join("ice.xsb");
    std::fs::write(&ice, "######\n#@$~.#\n######\n").unwrap();
    let out = satsoko(&["encode", ice.to_str().unwrap(), "--pddl"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ice.xsb: level 1") && err.contains("no ice"),
        "{err}"
    );
}

#[test]
fn encode_names_variables_and_writes_batches() {
    let (dir, file) = levels();
    let out = satsoko(&[
        "encode",
        &file,
        "--level",
        "1",
        "--steps",
        "3",
        "--encoding",
        "moves",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("c encoding moves: see encodings/moves.md"));
    assert!(text.contains("c var 1 "));
    assert!(text.contains("box_at r2c"));
    let p: Vec<&str> = text
        .lines()
        .find(|l| l.starts_with("p cnf"))
        .unwrap()
        .split(' ')
        .collect();
    let vars: usize = p[2].parse().unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("c var ")).count(),
        vars
    );

    // pushes-lazy is written in the self-contained layered form, `pushes`.
    for encoding in ["pushes", "pushes-lazy"] {
        let out = satsoko(&[
            "encode",
            &file,
            "--level",
            "1",
            "--steps",
            "2",
            "--encoding",
            encoding,
        ]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("c encoding pushes: see encodings/pushes.md"),
            "{encoding}"
        );
    }

    let batch = dir.path().join("batch");
    let out = satsoko(&[
        "encode",
        &file,
        "--level",
        "2",
        "--steps",
        "2..5",
        "--out-dir",
        batch.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let mut names: Vec<String> = std::fs::read_dir(&batch)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "levels-2-k2.cnf",
            "levels-2-k3.cnf",
            "levels-2-k4.cnf",
            "levels-2-k5.cnf"
        ]
    );

    let out = satsoko(&["encode", &file, "--level", "2", "--steps", "2..5"]);
    assert_eq!(out.status.code(), Some(1), "a range needs --out-dir");
    let out = satsoko(&["encode", &file, "--level", "1", "--steps", "0", "--dimspec"]);
    assert_eq!(out.status.code(), Some(2), "DIMSPEC has no bound");
    let dimspec = |encoding: &str| {
        let args = ["encode", &file, "--level", "1", "--dimspec"];
        satsoko(&[&args[..], &["--encoding", encoding]].concat())
    };
    let out = dimspec("pushes-lazy");
    assert_eq!(
        out.status.code(),
        Some(1),
        "DIMSPEC is for time-uniform encodings"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not written for pushes-lazy"), "{err}");
    for encoding in [
        "moves",
        "pushes",
        "pushes-path",
        "pushes-folded",
        "pushes-parallel",
    ] {
        let out = dimspec(encoding);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!("c DIMSPEC of the {encoding} encoding")));
        for section in ["i cnf", "u cnf", "g cnf", "t cnf"] {
            assert!(text.lines().any(|l| l.starts_with(section)), "{section}");
        }
    }
}

#[test]
fn sweep_writes_table_csv_and_svg() {
    let (dir, file) = levels();
    let csv = dir.path().join("sweep.csv");
    let svg = dir.path().join("sweep.svg");
    let out = satsoko(&[
        "sweep",
        &file,
        "--level",
        "1",
        "--from",
        "1",
        "--to",
        "5",
        "--encoding",
        "moves",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.lines().next().unwrap().contains("result"));
    let csv = std::fs::read_to_string(csv).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 5);
    // Level a: 1 walk + 2 pushes = 3 moves.
    assert!(rows[1].starts_with("2,UNSAT"));
    assert!(rows[2].starts_with("3,SAT"));
    let svg = std::fs::read_to_string(svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("SAT"));
    // With pushes, level a needs 2 pushes; 3 pushes is impossible (exactly k steps).
    let out = satsoko(&["sweep", &file, "--level", "1", "--from", "1", "--to", "3"]);
    let table = String::from_utf8_lossy(&out.stdout);
    let results: Vec<&str> = table
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(results, ["UNSAT", "SAT", "UNSAT"]);
    let out = satsoko(&["sweep", &file, "--from", "5", "--to", "1"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bench_summarises_and_compares() {
    let (dir, file) = levels();
    let csv = dir.path().join("old.csv");
    let json = dir.path().join("run.jsonl");
    let out = bench(
        &file,
        &[
            "--csv",
            csv.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.contains("solved 2 (proved optimal 2), unsolvable 1"),
        "{summary}"
    );
    assert!(summary.contains("median"));
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().count(), 4);
    assert_eq!(std::fs::read_to_string(&json).unwrap().lines().count(), 3);

    let out = bench(&file, &["--jobs", "2", "--compare", csv.to_str().unwrap()]);
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.contains("both solved 2, gained 0, lost 0"),
        "{summary}"
    );
    assert!(summary.contains("geometric mean"));

    let out = satsoko(&[
        "bench",
        &file,
        "--timeout",
        "5",
        "--compare",
        "/nonexistent.csv",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn bench_shards_merge_into_one_summary() {
    let (dir, file) = levels();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (one, two, two_csv) = (path("1.jsonl"), path("2.jsonl"), path("2.csv"));
    let out = bench(&file, &["--shard", "1/2", "--json", &one]);
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.starts_with("bench: 2 levels"), "{summary}");
    assert!(summary.contains("shard 1/2"), "{summary}");
    let out = bench(
        &file,
        &["--shard", "2/2", "--json", &two, "--csv", &two_csv],
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("bench: 1 level,"));

    // JSON lines and CSV shards join into the summary of the whole collection.
    for second in [&two, &two_csv] {
        let all = path("all.csv");
        let out = satsoko(&["bench", "--merge", &one, second, "--csv", &all]);
        let summary = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{summary}");
        assert!(
            summary.starts_with("bench: 3 levels, merged from 2 files"),
            "{summary}"
        );
        assert!(
            summary.contains("solved 2 (proved optimal 2), unsolvable 1"),
            "{summary}"
        );
        let rows = std::fs::read_to_string(&all).unwrap();
        let levels: Vec<&str> = rows
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap())
            .collect();
        assert_eq!(levels, ["1", "2", "3"], "collection order");
    }

    // The same slice twice, a file that is no result, a slice that does not exist.
    let out = satsoko(&["bench", "--merge", &one, &one]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("reported twice"), "{err}");
    let out = satsoko(&["bench", "--merge", &file]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is this a"));
    for bad in ["3/2", "0/2", "1", "a/b"] {
        let out = bench(&file, &["--shard", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    let out = satsoko(&["bench", &file]);
    assert_eq!(out.status.code(), Some(2), "a timeout is needed to solve");
}

#[test]
fn bench_kills_levels_at_the_limit() {
    let out = Command::new(env!("CARGO_BIN_EXE_satsoko"))
        .args([
            "bench",
            "levels/xsokoban.xsb",
            "--level",
            "2",
            "--timeout",
            "0.5",
            "--engine",
            "pdr",
        ])
        .output()
        .unwrap();
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("timeout 1"), "{summary}");
}

/// `satsoko bench FILE --timeout 20 ARGS…`.
fn bench(file: &str, args: &[&str]) -> std::process::Output {
    let mut all = vec!["bench", file, "--timeout", "20"];
    all.extend_from_slice(args);
    satsoko(&all)
}

/// The summary names the encoding the levels ran with: `unroll` takes the walk of
/// `pushes-path` with CaDiCaL when no encoding is named.
#[test]
#[cfg(feature = "cadical")]
fn bench_names_the_encoding_the_levels_ran_with() {
    let (_dir, file) = levels();
    let out = bench(&file, &["--engine", "unroll", "--solver", "cadical"]);
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.contains("engine unroll, encoding pushes-path, solver cadical"),
        "{summary}"
    );
}

#[test]
fn bench_compares_sat_with_the_astar_baseline() {
    let (dir, file) = levels();
    let sat = dir.path().join("sat.csv");
    let astar = dir.path().join("astar.csv");
    let (sat_csv, astar_csv) = (sat.to_str().unwrap(), astar.to_str().unwrap());
    let out = bench(&file, &["--csv", sat_csv]);
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{summary}");
    assert!(
        summary.contains("engine anytime, encoding pushes, solver varisat"),
        "{summary}"
    );
    let out = bench(
        &file,
        &[
            "--engine",
            "astar",
            "--csv",
            astar_csv,
            "--compare",
            sat_csv,
        ],
    );
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{summary}");
    assert!(
        summary.contains("engine astar, encoding pushes, solver none"),
        "{summary}"
    );
    assert!(
        summary.contains("solved 2 (proved optimal 2), unsolvable 1"),
        "{summary}"
    );
    assert!(
        summary.contains("both solved 2, gained 0, lost 0"),
        "{summary}"
    );
    // Same verdicts and push counts; no formula sizes for the search.
    let rows = |path: &std::path::Path| -> Vec<std::collections::HashMap<String, String>> {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        lines
            .map(|l| {
                let fields = l.split(',').map(str::to_string);
                header.iter().map(|h| h.to_string()).zip(fields).collect()
            })
            .collect()
    };
    for (s, a) in rows(&sat).iter().zip(rows(&astar)) {
        assert_eq!(
            (&s["status"], &s["pushes"]),
            (&a["status"], &a["pushes"]),
            "status and pushes: {s:?} {a:?}"
        );
        assert_eq!((&*s["solver"], &*s["engine"]), ("varisat", "anytime"));
        assert_eq!((&*a["solver"], &*a["engine"]), ("", "astar"));
        assert_eq!(a["variables"], "", "no variables: {a:?}");
    }
}
