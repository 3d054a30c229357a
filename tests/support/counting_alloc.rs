//! A global allocator that counts live and peak heap bytes, for the benchmark and the memory
//! test. Every call goes to the system allocator unchanged; only counters are kept, and only
//! while counting is on (it is, from the start): the benchmark turns it off while it times, as
//! the counters' atomic operations cost every allocation tens of cycles that a host's
//! allocator does not spend.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// Counts live and peak heap bytes.
pub struct Counting;

/// Whether allocations are counted.
static ON: AtomicBool = AtomicBool::new(true);
/// Bytes allocated and not yet freed since counting was last turned on (below 0 where what
/// was allocated before is freed).
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// The most `LIVE` has been since it was last reset.
static PEAK: AtomicIsize = AtomicIsize::new(0);

/// Turns counting on, from no bytes live, or off.
#[allow(dead_code)] // the memory test counts throughout
pub fn counting(on: bool) {
    ON.store(false, Ordering::SeqCst);
    LIVE.store(0, Ordering::SeqCst);
    PEAK.store(0, Ordering::SeqCst);
    ON.store(on, Ordering::SeqCst);
}

/// Starts counting the peak from now; gives the live bytes now.
pub fn reset_peak() -> usize {
    let live = LIVE.load(Ordering::Relaxed);
    PEAK.store(live, Ordering::Relaxed);
    usize::try_from(live).unwrap_or(0)
}

/// The peak since [`reset_peak`].
pub fn peak() -> usize {
    usize::try_from(PEAK.load(Ordering::Relaxed)).unwrap_or(0)
}

fn grew(by: usize) {
    if ON.load(Ordering::Relaxed) {
        let by = isize::try_from(by).unwrap_or(isize::MAX);
        let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

fn shrank(by: usize) {
    if ON.load(Ordering::Relaxed) {
        LIVE.fetch_sub(isize::try_from(by).unwrap_or(isize::MAX), Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; only counters are kept.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = System.alloc(layout);
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        shrank(layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = System.realloc(ptr, layout, new_size);
        if !new.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        new
    }
}
