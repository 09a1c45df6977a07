//! The mutations: how input number `i` of a run is made from a seed of the corpus (bit
//! flips, special bytes and numbers, dictionary words, splices, repeated and swapped
//! lines, broken UTF-8, ...), the same whatever the threads.
//!
//! Apart because it is the one part that writes inputs; it knows the targets only by
//! their dictionaries and weights.

use crate::corpus::Corpus;
use crate::rng::Rng;
use crate::targets::{TARGETS, Target};

/// Numbers that break parsers: at and beyond the limits of every integer type.
const HUGE_NUMBERS: &[&str] = &[
    "0",
    "10000",
    "10001",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967295",
    "4294967296",
    "4000000000",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999",
    "-99999999999999999999",
];

/// Bytes that are special somewhere: NUL, CR, LF, tab, DEL, and pieces of UTF-8.
const SPECIAL_BYTES: &[u8] = &[
    0x00, b'\r', b'\n', b'\t', 0x7F, 0xFF, 0xC3, 0x80, 0xE2, 0xF0,
];

/// Byte sequences that are not UTF-8: a lone continuation, a cut sequence, a surrogate,
/// an overlong NUL, a code point above U+10FFFF.
const NOT_UTF8: &[&[u8]] = &[
    &[0x80],
    &[0xFF],
    &[0xC3],
    &[0xE2, 0x82],
    &[0xED, 0xA0, 0x80],
    &[0xC0, 0x80],
    &[0xF4, 0x90, 0x80, 0x80],
];

/// Characters that take more than one byte (or none on screen).
const WIDE: &[&str] = &[
    "é", "中", "🙂", "\u{FEFF}", "\u{200B}", "\u{2028}", "\u{0301}",
];

/// The largest input made; larger ones are cut.
const MAX_INPUT: usize = 256 << 10;

/// The start of each line of `bytes`, and its end.
fn lines(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < bytes.len() {
        out.push((start, bytes.len()));
    }
    out
}

/// A position in `bytes`, at a line start a third of the time.
fn position(bytes: &[u8], rng: &mut Rng) -> usize {
    if rng.chance(33) {
        let lines = lines(bytes);
        if !lines.is_empty() {
            return rng.pick(&lines).0;
        }
    }
    rng.below(bytes.len() + 1)
}

/// The digit runs of `bytes` (with a leading minus sign).
fn numbers(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = if i > 0 && bytes[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// One mutation of `bytes`, for `target`, with `corpus` for splices.
fn mutate(bytes: &mut Vec<u8>, rng: &mut Rng, corpus: &Corpus, target: Target) {
    let len = bytes.len();
    match rng.below(17) {
        // Bit flips.
        0 if len > 0 => {
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(len);
                bytes[i] ^= 1 << rng.below(8);
            }
        }
        // A byte replaced by a special or random one.
        1 if len > 0 => {
            let i = rng.below(len);
            bytes[i] = if rng.chance(50) {
                *rng.pick(SPECIAL_BYTES)
            } else {
                rng.next() as u8
            };
        }
        // A word of the target's dictionary inserted (or one of another target's).
        2 => {
            let dictionary = if rng.chance(85) {
                target.dictionary()
            } else {
                rng.pick(&TARGETS).dictionary()
            };
            let word = rng.pick(dictionary).as_bytes();
            let at = position(bytes, rng);
            bytes.splice(at..at, word.iter().copied());
        }
        // A range deleted.
        3 if len > 0 => {
            let start = rng.below(len);
            let most = if rng.chance(80) { 16 } else { len };
            let n = 1 + rng.below(most);
            bytes.drain(start..(start + n).min(len));
        }
        // Cut: a prefix, or a window.
        4 if len > 0 => {
            let end = rng.below(len + 1);
            if rng.chance(50) {
                bytes.truncate(end);
            } else {
                let start = rng.below(end + 1);
                *bytes = bytes[start..end].to_vec();
            }
        }
        // Splice: a prefix of this input and a suffix of another seed.
        5 => {
            let pool = if rng.chance(70) {
                &corpus.by_target[target.index()]
            } else {
                &corpus.by_target[rng.pick(&TARGETS).index()]
            };
            if pool.is_empty() {
                return;
            }
            let other = &corpus.seeds[*rng.pick(pool)].bytes;
            let cut = position(bytes, rng);
            let from = rng.below(other.len() + 1);
            bytes.truncate(cut);
            bytes.extend_from_slice(&other[from..]);
        }
        // A line repeated (a row, a clause, a proof step).
        6 => {
            let lines = lines(bytes);
            if lines.is_empty() {
                return;
            }
            let (start, end) = *rng.pick(&lines);
            let times = match rng.below(10) {
                0 => 200 + rng.below(2000),
                1..=3 => 10 + rng.below(60),
                _ => 1 + rng.below(5),
            };
            let line = bytes[start..end].to_vec();
            let mut repeated = Vec::with_capacity(line.len() * times);
            for _ in 0..times {
                repeated.extend_from_slice(&line);
                if line.last() != Some(&b'\n') {
                    repeated.push(b'\n');
                }
            }
            bytes.splice(end..end, repeated);
        }
        // A range duplicated in place.
        7 if len > 0 => {
            let start = rng.below(len);
            let end = (start + 1 + rng.below(64)).min(len);
            let copy = bytes[start..end].to_vec();
            bytes.splice(end..end, copy);
        }
        // A huge number, in place of a number or inserted.
        8 => {
            let huge = rng.pick(HUGE_NUMBERS).as_bytes();
            let numbers = numbers(bytes);
            if !numbers.is_empty() && rng.chance(60) {
                let (start, end) = *rng.pick(&numbers);
                bytes.splice(start..end, huge.iter().copied());
            } else {
                let at = position(bytes, rng);
                bytes.splice(at..at, huge.iter().copied());
            }
        }
        // A huge run length before a character of the target.
        9 => {
            let count = *rng.pick(&[
                "10000",
                "10001",
                "9999",
                "65536",
                "4000000000",
                "99999999999999999999",
            ]);
            let letter = *rng.pick(&["#", " ", "-", "$", ".", "@", "~", "R", "l", "|"]);
            let at = position(bytes, rng);
            bytes.splice(at..at, format!("{count}{letter}").bytes());
        }
        // Line ends: every LF made CRLF, every CR dropped, or one CR inserted.
        10 => match rng.below(3) {
            0 => {
                let mut out = Vec::with_capacity(len + len / 8);
                for &b in bytes.iter() {
                    if b == b'\n' {
                        out.push(b'\r');
                    }
                    out.push(b);
                }
                *bytes = out;
            }
            1 => bytes.retain(|&b| b != b'\r'),
            _ => {
                let at = position(bytes, rng);
                bytes.insert(at, b'\r');
            }
        },
        // A NUL.
        11 => {
            let at = rng.below(len + 1);
            bytes.insert(at, 0);
        }
        // Bytes that are not UTF-8.
        12 => {
            let at = rng.below(len + 1);
            let bad = *rng.pick(NOT_UTF8);
            bytes.splice(at..at, bad.iter().copied());
        }
        // Two lines swapped, or one deleted.
        13 => {
            let lines = lines(bytes);
            if lines.len() < 2 {
                return;
            }
            let (a, b) = (*rng.pick(&lines), *rng.pick(&lines));
            let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if first == second || rng.chance(30) {
                bytes.drain(first.0..first.1);
            } else {
                let mut out = bytes[..first.0].to_vec();
                out.extend_from_slice(&bytes[second.0..second.1]);
                out.extend_from_slice(&bytes[first.1..second.0]);
                out.extend_from_slice(&bytes[first.0..first.1]);
                out.extend_from_slice(&bytes[second.1..]);
                *bytes = out;
            }
        }
        // A character of several bytes (or of no width).
        14 => {
            let at = position(bytes, rng);
            let wide = rng.pick(WIDE).as_bytes();
            bytes.splice(at..at, wide.iter().copied());
        }
        // A number nudged: one more, one less, zero, negated.
        15 => {
            let numbers = numbers(bytes);
            if numbers.is_empty() {
                return;
            }
            let (start, end) = *rng.pick(&numbers);
            let text = String::from_utf8_lossy(&bytes[start..end]).into_owned();
            let Ok(n) = text.parse::<i128>() else {
                return;
            };
            let new = match rng.below(4) {
                0 => n + 1,
                1 => n - 1,
                2 => 0,
                _ => -n,
            };
            bytes.splice(start..end, new.to_string().bytes());
        }
        // Everything from a point on repeated (a second level, a second answer).
        _ => {
            let from = rng.below(len + 1);
            let tail = bytes[from..].to_vec();
            bytes.extend_from_slice(&tail);
        }
    }
}

/// One input to run.
pub(crate) struct Input {
    pub(crate) target: Target,
    pub(crate) context: usize,
    pub(crate) bytes: Vec<u8>,
}

/// Input number `index` of the run with `seed`: the same mutations of the same seed
/// whatever the threads.
pub(crate) fn make_input(corpus: &Corpus, seed: u64, index: u64) -> Input {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    rng.next();
    let mut roll = rng.below(100) as u64;
    let mut target = Target::Level;
    for t in TARGETS {
        if roll < t.weight() {
            target = t;
            break;
        }
        roll -= t.weight();
    }
    let pool = &corpus.by_target[target.index()];
    let mut pick = *rng.pick(pool);
    // The whole collections are slow to run: one input in eight from them.
    if corpus.seeds[pick].bytes.len() > 4096 && !rng.chance(12) {
        pick = *rng.pick(pool);
    }
    let seed = &corpus.seeds[pick];
    let mut bytes = seed.bytes.clone();
    let (mut target, mut context) = (seed.target, seed.context);
    let rounds = match rng.below(100) {
        0..=2 => 0,
        3..=52 => 1,
        53..=77 => 2,
        _ => 3 + rng.below(2),
    };
    for _ in 0..rounds {
        mutate(&mut bytes, &mut rng, corpus, target);
        bytes.truncate(MAX_INPUT);
    }
    if rng.chance(6) {
        target = *rng.pick(&TARGETS);
        context = rng.below(8);
    }
    Input {
        target,
        context,
        bytes,
    }
}
