//! The digits format of the seed's A* solver: `#` wall, space floor, `0` box, `$` goal,
//! `*` box on goal, `1` player, `+` player on goal; lines starting with `;` are
//! comments, blank lines separate levels. It is read by translating each board
//! character to its XSB twin, one for one, so line and column numbers stay those of the
//! file, and then reading the result as XSB.

use super::error::{LevelError, LevelErrorKind};
use super::{Level, parse_xsb_entries};

/// The XSB character of a digits-format board character, if it is one.
fn xsb_of(c: char) -> Option<char> {
    Some(match c {
        '#' => '#',
        ' ' => ' ',
        '0' => '$',
        '$' => '.',
        '*' => '*',
        '1' => '@',
        '+' => '+',
        _ => return None,
    })
}

/// Reads a file in the digits format.
pub fn parse_digits_entries(
    file: &str,
    text: &str,
) -> Result<Vec<Result<Level, LevelError>>, LevelError> {
    let mut translated = String::with_capacity(text.len());
    let (mut level, mut in_board) = (0, false);
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            in_board = false;
            translated.push_str(line);
            translated.push('\n');
            continue;
        }
        if !in_board {
            level += 1;
            in_board = true;
        }
        for (j, c) in line.trim_end().chars().enumerate() {
            let Some(x) = xsb_of(c) else {
                return Err(LevelError {
                    file: file.to_string(),
                    level: Some(level),
                    line: Some(i + 1),
                    column: Some(j + 1),
                    kind: LevelErrorKind::Other(format!(
                        "unexpected character {c:?} in a board line of the digits format, \
                         which uses # (wall), space (floor), 0 (box), $ (goal), * (box on \
                         goal), 1 (player), + (player on goal)"
                    )),
                });
            };
            translated.push(x);
        }
        translated.push('\n');
    }
    parse_xsb_entries(file, &translated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digits_level_reads_as_its_xsb_twin() {
        let levels = parse_digits_entries("d", "; one\n######\n#1 0$#\n######\n").unwrap();
        let level = levels[0].as_ref().unwrap();
        assert_eq!(
            level.render(level.player(), level.initial_boxes()),
            "######\n#@ $.#\n######\n"
        );
        assert_eq!(level.title.as_deref(), Some("one"));
        let e = parse_digits_entries("d", "####\n#1.0$#\n").unwrap_err();
        assert_eq!((e.level, e.line, e.column), (Some(1), Some(2), Some(3)));
        assert!(e.to_string().contains("digits format"), "{e}");
    }
}
