//! End-to-end tests of `--proof DIR` and `satsoko check-proof`: certificates of optimal
//! plans are written, checked by our checker, and tampered ones refused. One more test,
//! ignored by default because a clone has no such file, has the outside checker
//! ../shared/tools/lratcheck.py (run by python3) check them too.

mod common;

use std::path::Path;
use std::process::Command;

use common::cli::{expect_code, json_lines, str_field};
use satsoko::cert::check::parse_cnf;

const MICROBAN: &str = "levels/microban.xsb";
const ICE: &str = "levels/ice/ice.xsb";

/// The outside LRAT checker, relative to the crate's root: the project's shared tools
/// sit beside the repository, so a clone of the repository alone has none.
const OUTSIDE_CHECKER: &str = "../shared/tools/lratcheck.py";

/// The provers `--prover` offers.
const PROVERS: [&str; 2] = ["varisat", "cadical"];

/// Writes certificates for Microban levels 1 to 3 into `dir`, refuted by `prover`, and
/// returns each pair's paths (formula, proof).
fn certificates(dir: &Path, prover: &str) -> Vec<(String, String)> {
    let out = dir.to_str().unwrap();
    let args = [
        MICROBAN, "--level", "1-3", "--proof", out, "--prover", prover, "--json",
    ];
    let run = expect_code(&args, 0);
    let pairs: Vec<(String, String)> = json_lines(&run)
        .iter()
        .map(|v| {
            assert_eq!(v["certified"], true, "{v}");
            let cnf = str_field(v, "certificate").to_string();
            let lrat = cnf.replace(".cnf", ".lrat");
            (cnf, lrat)
        })
        .collect();
    assert_eq!(pairs.len(), 3, "{run:?}");
    pairs
}

#[test]
fn optimal_plans_get_certificates_that_our_checker_accepts() {
    for prover in PROVERS {
        let dir = tempfile::tempdir().unwrap();
        for (cnf, lrat) in certificates(dir.path(), prover) {
            let checked = expect_code(&["check-proof", &cnf, &lrat], 0);
            assert!(
                checked.stdout.starts_with("verified"),
                "{prover}: {checked:?}"
            );
            // An LRAT file opens with a clause id past the formula's (some checkers
            // tell LRAT from DRAT so), also where CaDiCaL deletes before it adds.
            let proof = std::fs::read_to_string(&lrat).unwrap();
            let id: usize = proof.split_whitespace().next().unwrap().parse().unwrap();
            let formula = std::fs::read_to_string(&cnf).unwrap();
            let clauses = parse_cnf(&formula).unwrap().len();
            assert!(
                id >= clauses,
                "{prover}: {lrat} opens with id {id} of {clauses}"
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    // The text report says so.
    let out = dir.path().to_str().unwrap();
    let run = expect_code(&[MICROBAN, "--level", "2", "--proof", out], 0);
    assert!(
        run.stdout.contains("optimal in pushes (certified)"),
        "{run:?}"
    );
    assert!(run.stdout.contains("microban-2.cnf"), "{run:?}");
}

#[test]
#[ignore = "needs python3 and ../shared/tools/lratcheck.py"]
fn the_outside_checker_accepts_our_certificates() {
    // Run on purpose, a missing checker fails the test rather than passing it unchecked.
    let tool = Path::new(env!("CARGO_MANIFEST_DIR")).join(OUTSIDE_CHECKER);
    assert!(
        tool.exists(),
        "this test needs {OUTSIDE_CHECKER} (relative to the crate's root); it is not there"
    );
    let python = Command::new("python3").arg("--version").output();
    assert!(
        python.is_ok_and(|o| o.status.success()),
        "this test needs python3 on the PATH; it does not run"
    );
    for prover in PROVERS {
        let dir = tempfile::tempdir().unwrap();
        for (cnf, lrat) in certificates(dir.path(), prover) {
            let o = Command::new("python3")
                .arg(&tool)
                .args([&cnf, &lrat])
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{prover}, {cnf}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

#[test]
fn a_prover_without_proof_or_an_unknown_one_is_a_usage_error() {
    let run = expect_code(&[MICROBAN, "--level", "1", "--prover", "cadical"], 2);
    assert!(run.stderr.contains("--proof"), "{run:?}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let run = expect_code(&[MICROBAN, "--proof", out, "--prover", "minisat"], 2);
    assert!(run.stderr.contains("minisat"), "{run:?}");
}

#[test]
fn tampered_certificates_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    expect_code(&[MICROBAN, "--level", "1", "--proof", out], 0);
    let cnf = dir.path().join("microban-1.cnf");
    let lrat = dir.path().join("microban-1.lrat");
    let (cnf_text, lrat_text) = (
        std::fs::read_to_string(&cnf).unwrap(),
        std::fs::read_to_string(&lrat).unwrap(),
    );
    let check = |c: &str, l: &str, code: i32| {
        let (cf, lf) = (dir.path().join("t.cnf"), dir.path().join("t.lrat"));
        std::fs::write(&cf, c).unwrap();
        std::fs::write(&lf, l).unwrap();
        expect_code(
            &["check-proof", cf.to_str().unwrap(), lf.to_str().unwrap()],
            code,
        )
    };
    check(&cnf_text, &lrat_text, 0);
    // The formula without the clause that asks for a goal: the proof no longer holds.
    let lines: Vec<&str> = cnf_text.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("p cnf")).unwrap();
    let words: Vec<&str> = lines[header].split_whitespace().collect();
    let count: usize = words[3].parse().unwrap();
    let mut weaker: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    weaker[header] = format!("p cnf {} {}", words[2], count - 1);
    weaker.pop();
    let run = check(&(weaker.join("\n") + "\n"), &lrat_text, 6);
    assert!(run.stdout.starts_with("refused"), "{run:?}");
    // A proof whose derived clauses lose their hints.
    let stripped: String = lrat_text
        .lines()
        .map(|l| match l.split_once(" 0 ") {
            Some((clause, _)) if !l.contains(" d ") => format!("{clause} 0 0\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    check(&cnf_text, &stripped, 6);
    // An empty proof derives nothing.
    check(&cnf_text, "", 6);
    // Unreadable input: exit 1.
    expect_code(&["check-proof", "no-such.cnf", lrat.to_str().unwrap()], 1);
    expect_code(&["check-proof", cnf.to_str().unwrap(), "no-such.lrat"], 1);
    check("p cnf 1 2\n1 0\n", &lrat_text, 1);
}

#[test]
fn move_optimal_ice_plans_are_certified_and_push_optimal_ones_say_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let args = [
        ICE,
        "--level",
        "8",
        "--optimize",
        "moves",
        "--proof",
        out,
        "--json",
    ];
    let v = &json_lines(&expect_code(&args, 0))[0];
    assert_eq!(v["certified"], true, "{v}");
    let v = &json_lines(&expect_code(
        &[ICE, "--level", "8", "--proof", out, "--json"],
        0,
    ))[0];
    assert_eq!(v["certified"], false, "{v}");
    assert!(str_field(v, "certificate").contains("ice"), "{v}");
}
