//! Refutations by CaDiCaL in process, written as LRAT by CaDiCaL itself.
//!
//! The `cadical` crate builds CaDiCaL's sources (1.9.5, which writes LRAT) with its C
//! interface, but its Rust API has no proof tracing; this file declares the few C
//! functions of that interface it needs. CaDiCaL numbers the formula's clauses from 1
//! in the order they are added, as our checker and any LRAT checker do.

use std::ffi::{CString, c_char, c_int, c_void};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;

use super::Refutation;
use crate::stop::Stop;

unsafe extern "C" {
    fn ccadical_init() -> *mut c_void;
    fn ccadical_release(solver: *mut c_void);
    fn ccadical_set_option(solver: *mut c_void, name: *const c_char, value: c_int);
    fn ccadical_trace_proof(solver: *mut c_void, file: *mut c_void, name: *const c_char) -> c_int;
    fn ccadical_close_proof(solver: *mut c_void);
    fn ccadical_add(solver: *mut c_void, lit: c_int);
    fn ccadical_solve(solver: *mut c_void) -> c_int;
    fn ccadical_set_terminate(
        solver: *mut c_void,
        state: *mut c_void,
        terminate: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
    );
    fn fopen(path: *const c_char, mode: *const c_char) -> *mut c_void;
    fn fclose(file: *mut c_void) -> c_int;
}

/// CaDiCaL's terminate callback: asks the [`Stop`] its state points to.
unsafe extern "C" fn should_stop(state: *mut c_void) -> c_int {
    // SAFETY: the state is the `&Stop` given in `refute`, alive for the whole solve.
    let stop = unsafe { &*(state as *const Stop) };
    c_int::from(stop.should_stop())
}

/// Solves the formula of `clauses` (DIMACS literals) with CaDiCaL, writing its LRAT
/// proof (text) to `lrat` as it goes.
pub fn refute<C: IntoIterator<Item = i32>>(
    clauses: impl ExactSizeIterator<Item = C>,
    lrat: &Path,
    stop: &Stop,
) -> Result<Refutation, String> {
    let path = CString::new(lrat.as_os_str().as_encoded_bytes())
        .map_err(|_| format!("{} has a NUL byte", lrat.display()))?;
    let name = |s: &str| CString::new(s).expect("no NUL in an option name");
    // SAFETY: the solver and the file live until the end of this block, every pointer
    // handed over is valid for the call, and the terminate state (`stop`) outlives the
    // solve, after which the callback is taken off.
    unsafe {
        let file = fopen(path.as_ptr(), c"w".as_ptr());
        if file.is_null() {
            return Err(format!("cannot write {}", lrat.display()));
        }
        let solver = ccadical_init();
        // LRAT, as text; proof tracing must start before the first clause.
        ccadical_set_option(solver, name("lrat").as_ptr(), 1);
        ccadical_set_option(solver, name("binary").as_ptr(), 0);
        let traced = ccadical_trace_proof(solver, file, path.as_ptr());
        if traced == 0 {
            ccadical_release(solver);
            fclose(file);
            return Err("CaDiCaL refused to write a proof".into());
        }
        let count = clauses.len();
        for clause in clauses {
            for lit in clause {
                ccadical_add(solver, lit);
            }
            ccadical_add(solver, 0);
        }
        let state = stop as *const Stop as *mut c_void;
        ccadical_set_terminate(solver, state, Some(should_stop));
        let answer = ccadical_solve(solver);
        ccadical_set_terminate(solver, std::ptr::null_mut(), None);
        ccadical_close_proof(solver);
        ccadical_release(solver);
        if fclose(file) != 0 {
            return Err(format!("cannot finish writing {}", lrat.display()));
        }
        match answer {
            20 => {
                name_leading_deletions(lrat, count)
                    .map_err(|e| format!("cannot rewrite {}: {e}", lrat.display()))?;
                Ok(Refutation::Refuted)
            }
            10 => Ok(Refutation::Satisfiable),
            _ => Ok(Refutation::Stopped),
        }
    }
}

/// CaDiCaL names the deletions it makes before it adds a clause "0 d …"; LRAT names a
/// deletion line after the last clause id, which there is the formula's last, and some
/// checkers tell LRAT from DRAT by the first line. Those lines are renamed so; the
/// rest of the proof is copied as it is.
fn name_leading_deletions(lrat: &Path, clauses: usize) -> io::Result<()> {
    let mut proof = BufReader::new(File::open(lrat)?);
    let renamed = lrat.with_extension("lrat.part");
    let mut out = BufWriter::new(File::create(&renamed)?);
    let mut line = Vec::new();
    loop {
        line.clear();
        if proof.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        match line.strip_prefix(b"0 d ") {
            Some(rest) => {
                write!(out, "{clauses} d ")?;
                out.write_all(rest)?;
            }
            None => {
                out.write_all(&line)?;
                io::copy(&mut proof, &mut out)?;
                break;
            }
        }
    }
    out.flush()?;
    drop(out);
    std::fs::rename(renamed, lrat)
}
