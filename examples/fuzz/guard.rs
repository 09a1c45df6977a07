//! The memory guard: an allocator that counts the bytes in use and refuses one request
//! above `HUGE` (or a total above `TOTAL`). A refused request aborts the process (Rust
//! cannot unwind out of an allocation), so the input being run is written out first.
//!
//! Apart from the rest because it is the process's global allocator: it sees every
//! allocation of every thread, and knows of an input only through the thread-locals the
//! driver sets before running one.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest single allocation an input may ask for.
const HUGE: usize = 1 << 30;
/// The most heap all threads together may hold.
const TOTAL: usize = 6 << 30;

/// Bytes in use.
static IN_USE: AtomicUsize = AtomicUsize::new(0);
/// The most bytes ever in use (a high-water mark for the summary).
pub(crate) static PEAK: AtomicUsize = AtomicUsize::new(0);
/// Where the input of a refused allocation is written (set at the start of a run).
pub(crate) static HUGE_INPUT_PATH: OnceLock<PathBuf> = OnceLock::new();

thread_local! {
    /// The input this thread is running, and its target's name.
    pub(crate) static CURRENT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    pub(crate) static CURRENT_NAME: Cell<&'static str> = const { Cell::new("") };
    /// Set while a refused allocation is being reported (the report allocates too).
    static REPORTING: Cell<bool> = const { Cell::new(false) };
}

/// The counting allocator (see above).
struct Guard;

impl Guard {
    /// Whether a request of `size` more bytes is refused; reports it if so.
    fn refuse(size: usize) -> bool {
        let total = IN_USE.load(Ordering::Relaxed).saturating_add(size);
        if size <= HUGE && total <= TOTAL {
            return false;
        }
        if REPORTING.try_with(|r| r.replace(true)).unwrap_or(true) {
            return false;
        }
        let name = CURRENT_NAME.try_with(Cell::get).unwrap_or("");
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "\nfuzz: a {name} input asked for {size} bytes at once ({total} in all; the \
             limits are {HUGE} and {TOTAL})"
        );
        if let Some(path) = HUGE_INPUT_PATH.get() {
            let _ = CURRENT.try_with(|c| {
                if let Ok(bytes) = c.try_borrow()
                    && std::fs::write(path, &bytes[..]).is_ok()
                {
                    let _ = writeln!(err, "fuzz: the input is saved as {}", path.display());
                }
            });
        }
        true
    }

    fn count(size: usize) {
        let now = IN_USE.fetch_add(size, Ordering::Relaxed) + size;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }
}

// SAFETY: every request goes to `System` unchanged, or is refused with a null pointer,
// which callers handle (std aborts).
unsafe impl GlobalAlloc for Guard {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if Guard::refuse(layout.size()) {
            return std::ptr::null_mut();
        }
        Guard::count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if Guard::refuse(layout.size()) {
            return std::ptr::null_mut();
        }
        Guard::count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let grow = new_size.saturating_sub(layout.size());
        if grow > 0 && Guard::refuse(grow.max(new_size)) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract is passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            Guard::count(new_size);
            IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static GLOBAL: Guard = Guard;
