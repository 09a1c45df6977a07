//! Reading level files for the CLI.

use std::path::Path;
use std::sync::OnceLock;

use crate::level::{Format, Level, LevelError, LevelErrorKind, parse_entries};

/// The name of a level file in reports: its path, or `<stdin>` for `-`.
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Standard input, read at most once, so that `-` can be read again (`solve
/// --solutions` reads the text it writes solutions into, then solves its levels).
static STDIN: OnceLock<Result<Vec<u8>, String>> = OnceLock::new();

/// Reads every level of `path` (in `format`, or the one it looks like; `-` is standard
/// input): an error for the whole file, or one entry per level.
pub fn read_levels(
    path: &Path,
    format: Option<Format>,
) -> Result<Vec<Result<Level, LevelError>>, LevelError> {
    let text = read_text(path)?;
    parse_entries(&display_name(path), &text, format)
}

/// The text of a level file (`-`: standard input, read once and kept), which must be
/// UTF-8.
pub fn read_text(path: &Path) -> Result<String, LevelError> {
    let name = display_name(path);
    let text = if path.as_os_str() == "-" {
        STDIN
            .get_or_init(|| {
                let mut bytes = Vec::new();
                std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
                    .map(|_| bytes)
                    .map_err(|e| e.to_string())
            })
            .clone()
    } else {
        std::fs::read(path).map_err(|e| e.to_string())
    }
    .map_err(|e| LevelError::file(&name, LevelErrorKind::Io(e)))?;
    String::from_utf8(text).map_err(|e| {
        LevelError::file(
            &name,
            LevelErrorKind::Other(format!(
                "the file is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )),
        )
    })
}

/// Reads one level of `path` (1-based `number`).
pub fn read_level(path: &Path, number: usize, format: Option<Format>) -> Result<Level, LevelError> {
    let mut entries = read_levels(path, format)?;
    let available = entries.len();
    if number == 0 || number > available {
        return Err(LevelError::file(
            &path.display().to_string(),
            LevelErrorKind::NoSuchLevel {
                asked: number,
                available,
            },
        ));
    }
    entries.swap_remove(number - 1)
}

/// The levels a `--level` selection asks for, from every file: each as its file's
/// name and path with the level or the error that took its place (a file that cannot
/// be read, a level that cannot, a selection beyond the end of a file).
pub fn selected_levels<'a>(
    files: &'a [std::path::PathBuf],
    selection: Option<&super::args::LevelSelection>,
    format: Option<Format>,
) -> Vec<(String, &'a Path, Result<Level, LevelError>)> {
    let mut jobs = Vec::new();
    for path in files {
        let name = display_name(path);
        match read_levels(path, format) {
            Ok(entries) => {
                if let Some(sel) = selection.filter(|s| s.max() > entries.len()) {
                    let e = LevelError::file(
                        &name,
                        LevelErrorKind::NoSuchLevel {
                            asked: sel.max(),
                            available: entries.len(),
                        },
                    );
                    jobs.push((name.clone(), path.as_path(), Err(e)));
                }
                for (i, entry) in entries.into_iter().enumerate() {
                    if selection.is_none_or(|sel| sel.contains(i + 1)) {
                        jobs.push((name.clone(), path.as_path(), entry));
                    }
                }
            }
            Err(e) => jobs.push((name, path.as_path(), Err(e))),
        }
    }
    jobs
}
