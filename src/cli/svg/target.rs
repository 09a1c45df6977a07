//! Where `solve --svg PATH` writes: PATH itself when the run covers one level, else one
//! file per solved level in the directory PATH.
//!
//! Apart from the drawing because it is about files and exit codes, not SVG.

use std::path::{Path, PathBuf};

use super::animation;
use crate::cli::report::{EXIT_INPUT, EXIT_USAGE};
use crate::game::Convention;
use crate::level::Level;

/// Where `solve --svg PATH` writes its animations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SvgTarget {
    /// The run covers one level: its animation is this file.
    File(PathBuf),
    /// The run covers several levels: `<file stem>-<level>.svg` in this directory.
    Dir(PathBuf),
}

impl SvgTarget {
    /// The target of `--svg path` for a run over `levels` selected levels: a file for
    /// one level, a directory (created if missing) for more. A path that exists as the
    /// other kind is refused with the usage-error exit code and a message; a directory
    /// that cannot be created, with the input-error code.
    pub fn new(path: &Path, levels: usize) -> Result<SvgTarget, (i32, String)> {
        let shown = path.display();
        if levels <= 1 {
            if path.is_dir() {
                return Err((
                    EXIT_USAGE,
                    format!(
                        "--svg {shown}: the run covers one level, so --svg names the file to write, but {shown} is a directory (give a file name, e.g. {})",
                        path.join("level.svg").display()
                    ),
                ));
            }
            return Ok(SvgTarget::File(path.to_path_buf()));
        }
        if path.exists() && !path.is_dir() {
            return Err((
                EXIT_USAGE,
                format!(
                    "--svg {shown}: the run covers {levels} levels, so --svg names a directory (one <file stem>-<level>.svg per solved level), but {shown} is a file"
                ),
            ));
        }
        std::fs::create_dir_all(path).map_err(|e| {
            (
                EXIT_INPUT,
                format!("--svg {shown}: cannot create the directory: {e}"),
            )
        })?;
        Ok(SvgTarget::Dir(path.to_path_buf()))
    }

    /// The file the animation of level `number` of the level file `file` goes to
    /// (`-`, standard input, has the stem `stdin`).
    pub fn path_for(&self, file: &Path, number: usize) -> PathBuf {
        match self {
            SvgTarget::File(path) => path.clone(),
            SvgTarget::Dir(dir) => {
                let stem = if file.as_os_str() == "-" {
                    "stdin".to_string()
                } else {
                    file.file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_else(|| "level".to_string())
                };
                dir.join(format!("{stem}-{number}.svg"))
            }
        }
    }

    /// Draws `solution` of `level` (from `file`) and writes it where it belongs;
    /// returns the file written, or why nothing was.
    pub fn write(
        &self,
        file: &Path,
        level: &Level,
        solution: &str,
        convention: Convention,
    ) -> Result<PathBuf, String> {
        let path = self.path_for(file, level.number);
        let svg = animation(level, solution, convention)
            .map_err(|e| format!("the solution does not replay: {e}"))?;
        std::fs::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }
}
