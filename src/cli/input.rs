//! Reading level files for the CLI.

use std::path::Path;

use std::sync::OnceLock;

use crate::level::{Format, Level, LevelError, LevelErrorKind, parse_entries};

/// The `--format` the user forced, if any (set once at start-up).
pub static FORMAT: OnceLock<Option<Format>> = OnceLock::new();

/// Reads every level of `path`: an error for the whole file, or one entry per level.
pub fn read_levels(path: &Path) -> Result<Vec<Result<Level, LevelError>>, LevelError> {
    let name = path.display().to_string();
    let text = std::fs::read(path)
        .map_err(|e| LevelError::file(&name, LevelErrorKind::Io(e.to_string())))?;
    let text = String::from_utf8(text).map_err(|e| {
        LevelError::file(
            &name,
            LevelErrorKind::Other(format!(
                "the file is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            )),
        )
    })?;
    parse_entries(&name, &text, FORMAT.get().copied().flatten())
}

/// Reads one level of `path` (1-based `number`).
pub fn read_level(path: &Path, number: usize) -> Result<Level, LevelError> {
    let mut entries = read_levels(path)?;
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
