//! The layers of the crate, checked: no module uses one above it. The crate stays one
//! crate (one `cargo install`, internals not made public for a neighbour crate's sake);
//! this test holds the order a workspace would enforce.
//!
//! Unit tests may reach up (they check a layer against the brute-force oracle of
//! `engine`), so a file's `#[cfg(test)]` module is not read.

use std::path::Path;

/// The layers from the bottom up: each may use the ones before it. `binairo` is a
/// sibling of the Sokoban layers: it stands on the SAT layer alone.
const LAYERS: &[(&str, &[&str])] = &[
    ("sat", &[]),
    // The stop signal interrupts a SAT solver mid-question.
    ("stop", &["sat"]),
    ("level", &[]),
    ("game", &["level"]),
    ("analysis", &["stop", "level", "game"]),
    ("encode", &["stop", "level", "game", "analysis", "sat"]),
    (
        "cert",
        &["stop", "level", "game", "analysis", "sat", "encode"],
    ),
    (
        "engine",
        &["stop", "level", "game", "analysis", "sat", "encode"],
    ),
    ("binairo", &["stop", "sat"]),
    (
        "cli",
        &[
            "stop", "level", "game", "analysis", "sat", "encode", "cert", "engine", "binairo",
        ],
    ),
];

/// The text of `path` without its test module.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// The `.rs` files of a layer: its folder, or its one file.
fn files_of(layer: &str) -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    if src.join(layer).is_dir() {
        walk(&src.join(layer), &mut out);
    } else {
        out.push(src.join(format!("{layer}.rs")));
    }
    out
}

#[test]
fn no_layer_uses_one_above_it() {
    let mut wrong = Vec::new();
    for (layer, below) in LAYERS {
        for path in files_of(layer) {
            let code = code_of(&path);
            for (at, _) in code.match_indices("crate::") {
                let used: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if used != *layer && !below.contains(&used.as_str()) {
                    wrong.push(format!("{} uses crate::{used}", path.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "layers crossed upward:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_module_of_the_crate_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if ["lib", "main"].contains(&name.as_str()) {
            continue;
        }
        assert!(
            LAYERS.iter().any(|(layer, _)| *layer == name),
            "src/{name} is in no layer of tests/layers.rs"
        );
    }
}
