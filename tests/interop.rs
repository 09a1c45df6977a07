//! Interop with outside solvers: encode → outside solver → decode must give a verified
//! plan of the same length as the in-process solve, and an UNSAT bound must stay UNSAT.
//! The tests that need `cadical` or `minisat` are ignored, their reason naming the
//! program, so a plain `cargo test` lists them as not run; `cargo test -- --include-ignored`
//! (as `.ci/run` does after installing Debian's packages) runs them, and a missing program
//! then fails them.

use std::path::Path;
mod common;

use common::satsoko;
use std::process::{Command, Output};

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

; c
#####
#@  #
# $ #
#.  #
#####
";

/// Fails the test unless `solver` is on the PATH. The tests that call it are ignored
/// by default; run on purpose without the program, they must fail, not pass unchecked.
fn require(solver: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {solver}")])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "this test needs {solver} on the PATH (apt-get install {solver}); it is not there"
    );
}

fn json_line(out: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(text.lines().last().expect("a line")).expect("JSON")
}

/// Runs an outside solver on `cnf`, writing its answer to `answer`.
fn run_solver(solver: &str, cnf: &Path, answer: &Path) {
    match solver {
        "minisat" => {
            let _ = Command::new("minisat")
                .arg(cnf)
                .arg(answer)
                .output()
                .expect("minisat runs");
        }
        _ => {
            let out = Command::new(solver)
                .arg("-q")
                .arg(cnf)
                .output()
                .expect("solver runs");
            std::fs::write(answer, out.stdout).unwrap();
        }
    }
}

/// Writes the CNF of `level` for bound `k`, runs `solver` on it and decodes the answer.
fn encode_solve_decode(
    dir: &Path,
    file: &str,
    level: &str,
    encoding: &str,
    k: &str,
    solver: &str,
) -> Output {
    let cnf = dir.join(format!("{level}-{encoding}-{k}.cnf"));
    let answer = dir.join(format!("{level}-{encoding}-{k}.{solver}"));
    let enc = satsoko(&[
        "encode",
        file,
        "--level",
        level,
        "--steps",
        k,
        "--encoding",
        encoding,
        "-o",
        cnf.to_str().unwrap(),
    ]);
    assert!(
        enc.status.success(),
        "{}",
        String::from_utf8_lossy(&enc.stderr)
    );
    run_solver(solver, &cnf, &answer);
    satsoko(&[
        "decode",
        file,
        "--level",
        level,
        "--steps",
        k,
        "--encoding",
        encoding,
        "--model",
        answer.to_str().unwrap(),
        "--json",
    ])
}

/// Solves the three small levels in process, then at the same bound with `solver`
/// outside (same length, verified plan) and one step below (no plan), for both encodings.
fn round_trip(solver: &str) {
    require(solver);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("levels.xsb");
    std::fs::write(&file, LEVELS).unwrap();
    let file = file.to_str().unwrap();
    for (encoding, metric) in [
        ("moves", "moves"),
        ("pushes", "pushes"),
        ("pushes-path", "pushes"),
    ] {
        for level in ["1", "2", "3"] {
            let v = json_line(&satsoko(&[
                file,
                "--level",
                level,
                "--json",
                "--encoding",
                encoding,
            ]));
            assert_eq!(v["status"], "solved", "{v}");
            let k = v["k"].as_u64().unwrap();

            // At the optimum the outside solver finds a plan of that length.
            let dec =
                encode_solve_decode(dir.path(), file, level, encoding, &k.to_string(), solver);
            assert!(
                dec.status.success(),
                "{}",
                String::from_utf8_lossy(&dec.stderr)
            );
            let d = json_line(&dec);
            assert_eq!(d["status"], "solved");
            assert_eq!(d[metric], v[metric], "{encoding} level {level}");
            let sol = d["solution"].as_str().unwrap();
            let ver = satsoko(&["verify", file, "--level", level, "--solution", sol]);
            assert!(ver.status.success());

            // One step less is unsatisfiable outside too.
            let dec = encode_solve_decode(
                dir.path(),
                file,
                level,
                encoding,
                &(k - 1).to_string(),
                solver,
            );
            assert_eq!(dec.status.code(), Some(4), "{encoding} level {level}");
            assert_eq!(json_line(&dec)["status"], "no-plan");
        }
    }
}

#[test]
#[ignore = "needs cadical on the PATH (apt-get install cadical)"]
fn cadical_round_trip() {
    round_trip("cadical");
}

#[test]
#[ignore = "needs minisat on the PATH (apt-get install minisat)"]
fn minisat_round_trip() {
    round_trip("minisat");
}

/// `--solver-cmd cmd` (which runs `solver`) finds plans of the in-process length,
/// optimizing moves and pushes.
fn solver_cmd_matches_in_process(solver: &str, cmd: &str) {
    require(solver);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("levels.xsb");
    std::fs::write(&file, LEVELS).unwrap();
    let file = file.to_str().unwrap();
    for optimize in ["moves", "pushes"] {
        let args = [file, "--level", "2", "--json", "--optimize", optimize];
        let base = json_line(&satsoko(&args));
        let outside = [&args[..], &["--solver-cmd", cmd, "--timeout", "30"]].concat();
        let v = json_line(&satsoko(&outside));
        assert_eq!(v["status"], "solved", "{cmd}: {v}");
        assert_eq!(v[optimize], base[optimize], "{cmd}");
        assert_eq!(v["optimal"], optimize);
    }
}

#[test]
#[ignore = "needs cadical on the PATH (apt-get install cadical)"]
fn solver_cmd_cadical_matches_in_process() {
    solver_cmd_matches_in_process("cadical", "cadical -q");
}

#[test]
#[ignore = "needs minisat on the PATH (apt-get install minisat)"]
fn solver_cmd_minisat_matches_in_process() {
    solver_cmd_matches_in_process("minisat", "minisat {in} {out}");
}

#[test]
fn decode_rejects_models_of_another_formula() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("levels.xsb");
    std::fs::write(&file, LEVELS).unwrap();
    let answer = dir.path().join("bad.ans");
    std::fs::write(&answer, "s SATISFIABLE\nv -1 -2 -3 0\n").unwrap();
    let out = satsoko(&[
        "decode",
        file.to_str().unwrap(),
        "--level",
        "1",
        "--steps",
        "3",
        "--model",
        answer.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("violates clause"), "{err}");
    std::fs::write(&answer, "s UNKNOWN\n").unwrap();
    let out = satsoko(&[
        "decode",
        file.to_str().unwrap(),
        "--level",
        "1",
        "--steps",
        "3",
        "--model",
        answer.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::write(&answer, "1 2 x\n").unwrap();
    let out = satsoko(&[
        "decode",
        file.to_str().unwrap(),
        "--level",
        "1",
        "--steps",
        "3",
        "--model",
        answer.to_str().unwrap(),
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1"));
}

#[test]
#[ignore = "needs cadical on the PATH (apt-get install cadical)"]
fn encode_means_at_most_k_steps() {
    require("cadical");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.xsb");
    std::fs::write(&file, "#####\n#@$.#\n#####\n").unwrap();
    let file = file.to_str().unwrap();
    // One push (one move) solves it; any larger bound must stay satisfiable.
    for encoding in ["moves", "pushes"] {
        for k in ["1", "2", "3", "6"] {
            let dec = encode_solve_decode(dir.path(), file, "1", encoding, k, "cadical");
            let d = json_line(&dec);
            assert_eq!(d["status"], "solved", "{encoding} K={k}: {d}");
            let steps = if encoding == "moves" {
                &d["moves"]
            } else {
                &d["pushes"]
            };
            assert!(
                steps.as_u64().unwrap() <= k.parse::<u64>().unwrap(),
                "{encoding} K={k}"
            );
        }
    }
}

#[test]
#[ignore = "needs cadical on the PATH (apt-get install cadical)"]
fn an_outside_solver_is_killed_at_the_limit() {
    require("cadical");
    let start = std::time::Instant::now();
    let out = satsoko(&[
        "levels/xsokoban.xsb",
        "--level",
        "3",
        "--solver-cmd",
        "cadical -q",
        "--timeout",
        "1",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(5), "{out:?}");
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(json_line(&out)["status"], "timeout");
}
