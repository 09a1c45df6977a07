//! `sweep`'s counts of the search: the conflicts, learned clauses and decisions each
//! in-process solver can report, and `-` for what it cannot.

mod common;

use std::collections::HashMap;

use common::cli::MICROBAN;
use common::satsoko;

/// A table's rows, each by column name.
type Rows = Vec<HashMap<String, String>>;

/// Sweeps Microban 1 at k = 8 (its optimum, a search of some tens of conflicts in a
/// millisecond) and 9 (refuted by the push parity, without the solver) with `solver`.
/// The table's rows, each by column name, and the CSV's.
fn sweep(solver: &str) -> (Rows, Rows) {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sweep.csv");
    let out = satsoko(&[
        "sweep",
        MICROBAN,
        "--level",
        "1",
        "--from",
        "8",
        "--to",
        "9",
        "--solver",
        solver,
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let table = String::from_utf8_lossy(&out.stdout).to_string();
    let csv = std::fs::read_to_string(csv).unwrap();
    (
        rows(table.lines().map(|l| l.split_whitespace().collect())),
        rows(csv.lines().map(|l| l.split(',').collect())),
    )
}

/// Lines of cells, the first the header, as maps from column to cell.
fn rows<'a>(mut lines: impl Iterator<Item = Vec<&'a str>>) -> Rows {
    let header = lines.next().expect("a header");
    lines
        .map(|cells| {
            assert_eq!(cells.len(), header.len(), "{cells:?}");
            (header.iter().zip(cells))
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect()
        })
        .collect()
}

fn count(cell: &str) -> u64 {
    cell.parse()
        .unwrap_or_else(|_| panic!("{cell:?} is no count"))
}

#[test]
fn sweep_reports_the_conflicts_of_varisat() {
    let (table, csv) = sweep("varisat");
    assert_eq!(table.len(), 2);
    let (k8, k9) = (&table[0], &table[1]);
    assert_eq!((k8["k"].as_str(), k8["result"].as_str()), ("8", "SAT"));
    assert!(count(&k8["conflicts"]) > 0, "{k8:?}");
    // One clause learned per conflict.
    assert_eq!(k8["learned"], k8["conflicts"]);
    // varisat has no decision count.
    assert_eq!(k8["decisions"], "-");
    // No solver call at the wrong parity: no conflicts.
    assert_eq!(
        (k9["result"].as_str(), k9["conflicts"].as_str()),
        ("UNSAT", "0")
    );
    // The CSV has the same counts; an unknown one is empty.
    assert_eq!(csv[0]["conflicts"], k8["conflicts"]);
    assert_eq!(csv[0]["learned"], k8["learned"]);
    assert_eq!(csv[0]["decisions"], "");
}

#[cfg(feature = "cadical")]
#[test]
fn sweep_reports_the_learned_clauses_of_cadical() {
    let (table, csv) = sweep("cadical");
    assert_eq!(table.len(), 2);
    let (k8, k9) = (&table[0], &table[1]);
    assert_eq!((k8["k"].as_str(), k8["result"].as_str()), ("8", "SAT"));
    assert!(count(&k8["learned"]) > 0, "{k8:?}");
    // The crate passes on the learned clauses, not the conflicts (CaDiCaL settles some
    // without learning) nor the decisions.
    assert_eq!(
        (k8["conflicts"].as_str(), k8["decisions"].as_str()),
        ("-", "-")
    );
    assert_eq!(
        (k9["result"].as_str(), k9["learned"].as_str()),
        ("UNSAT", "0")
    );
    assert_eq!(csv[0]["learned"], k8["learned"]);
    assert_eq!(
        (csv[0]["conflicts"].as_str(), csv[0]["decisions"].as_str()),
        ("", "")
    );
}
