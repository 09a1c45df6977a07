//! Ctrl-C: the first press cancels the run's stop, which every engine checks; the level
//! being solved ends with what it has, and the command skips the rest.

use std::sync::OnceLock;

use crate::engine::Stop;

/// The stop Ctrl-C cancels, installed on first use (a process has one handler).
pub fn on_ctrl_c() -> Stop {
    static ROOT: OnceLock<Stop> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = Stop::never();
        let handler = root.clone();
        // Without a handler (it cannot be installed), Ctrl-C kills the process as usual.
        let _ = ctrlc::set_handler(move || handler.cancel());
        root
    })
    .clone()
}
