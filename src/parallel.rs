//! An order-keeping map over a suite's benchmarks on the machine's cores.
//!
//! The analysis of one benchmark (both protocols, its interval, its shape) depends on that benchmark's runs
//! alone, so the benchmarks of a large suite are analysed on as many threads as the machine offers, each
//! taking blocks of a few benchmarks until none is left, and the results come back in the input's order:
//! the report is the same, to the bit, whatever the number of threads (tested). Small inputs stay on the
//! calling thread, where starting threads would cost more than it saves.
//!
//! Written with `std::thread::scope` rather than a thread-pool crate: one call site shape (a slice in, a
//! `Vec` out, in order) is all the analysis needs, and scoped threads borrow the suite without copying it.
//! The statistics stay pure: the number of threads is the one fact read from the machine, and it changes
//! only how long the analysis takes.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Fewer items than this per thread are not worth a thread of their own.
pub(crate) const MIN_PER_THREAD: usize = 32;

/// `items.iter().map(f).collect()`, on up to the machine's number of cores.
pub(crate) fn map<'a, T: Sync, U: Send>(items: &'a [T], f: impl Fn(&'a T) -> U + Sync) -> Vec<U> {
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    map_on(items, cores, f)
}

/// Items a thread claims at a time: small enough that the threads end together (one benchmark's analysis
/// may cost ten times another's), large enough that claiming costs nothing beside the work.
const BLOCK: usize = 8;

/// [`map`] on at most `threads` threads.
///
/// Thread `t` first takes block `t` of [`BLOCK`] items, then whichever block no thread has claimed yet, so
/// that a share of costly items on one thread does not leave the others idle; the results are put back in
/// the input's order.
pub(crate) fn map_on<'a, T: Sync, U: Send>(
    items: &'a [T],
    threads: usize,
    f: impl Fn(&'a T) -> U + Sync,
) -> Vec<U> {
    let threads = threads.min(items.len() / MIN_PER_THREAD).max(1);
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let blocks = items.len().div_ceil(BLOCK);
    let next = AtomicUsize::new(threads);
    let work = |first: usize| {
        let mut done: Vec<(usize, Vec<U>)> = Vec::new();
        let mut block = first;
        while block < blocks {
            let range = block * BLOCK..((block + 1) * BLOCK).min(items.len());
            done.push((block, items[range].iter().map(&f).collect()));
            block = next.fetch_add(1, Ordering::Relaxed);
        }
        done
    };
    let work = &work;
    let mut parts = std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|t| scope.spawn(move || work(t))).collect();
        let mut parts = work(0);
        for handle in others {
            // A panic in a worker is a bug of the analysis: carry it to the caller as it is.
            match handle.join() {
                Ok(part) => parts.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        parts
    });
    parts.sort_unstable_by_key(|&(block, _)| block);
    let mut out = Vec::with_capacity(items.len());
    for (_, part) in parts {
        out.extend(part);
    }
    out
}

/// `(a(), b())`: on a suite of `items` benchmarks large enough for [`map`] to use several threads, `a` runs
/// on a thread of its own while `b` runs on this one (and whatever threads `b` starts); on a smaller one,
/// one after the other here, where a thread would cost more than it saves. The results are the same either
/// way.
pub(crate) fn join<A: Send, B>(
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B,
    items: usize,
) -> (A, B) {
    if items < 2 * MIN_PER_THREAD {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let a = scope.spawn(a);
        let b = b();
        // A panic in `a` is a bug: carried to the caller as it is.
        let a = a
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (a, b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_comes_back_once_in_order_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let expected: Vec<u64> = items.iter().map(|v| v * v + 1).collect();
        for threads in [1, 2, 3, 7, 64] {
            assert_eq!(
                map_on(&items, threads, |v| v * v + 1),
                expected,
                "{threads}"
            );
        }
        assert_eq!(map_on(&items[..5], 4, |v| v + 1), vec![1, 2, 3, 4, 5]);
        assert!(map_on(&[] as &[u64], 4, |v| *v).is_empty());
    }

    #[test]
    fn small_inputs_stay_on_the_calling_thread() {
        let caller = std::thread::current().id();
        let items = vec![0u8; MIN_PER_THREAD * 2 - 1];
        let ids = map_on(&items, 8, |_| std::thread::current().id());
        assert!(ids.iter().all(|&id| id == caller));
        let items = vec![0u8; MIN_PER_THREAD * 4];
        let ids = map_on(&items, 2, |_| std::thread::current().id());
        assert_eq!(ids[0], caller);
        assert_ne!(ids[BLOCK], caller);
    }

    /// While the calling thread is held on its first item, the other thread analyses every item outside
    /// its first block: a costly share does not leave a core idle (a share fixed in advance would leave
    /// half of them here).
    #[test]
    fn a_slow_item_does_not_hold_back_the_others() {
        let items: Vec<usize> = (0..MIN_PER_THREAD * 8).collect();
        let (done, wait) = std::sync::mpsc::channel();
        let wait = std::sync::Mutex::new(wait);
        let out = map_on(&items, 2, |&i| {
            if i == 0 {
                let wait = wait.lock().expect("one waiter");
                for _ in BLOCK..items.len() {
                    let reached = wait.recv_timeout(std::time::Duration::from_secs(30));
                    assert!(reached.is_ok(), "the other items waited for the first");
                }
            } else {
                done.send(()).expect("the waiter is there");
            }
            i * 2
        });
        assert_eq!(out, items.iter().map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn join_runs_its_first_task_beside_the_second_only_for_a_large_suite() {
        let caller = std::thread::current().id();
        let id = || std::thread::current().id();
        let (a, b) = join(id, id, MIN_PER_THREAD * 2 - 1);
        assert_eq!((a, b), (caller, caller));
        let (a, b) = join(id, id, MIN_PER_THREAD * 2);
        assert_ne!(a, caller);
        assert_eq!(b, caller);
        assert_eq!(join(|| 2 + 2, || "four", 1000), (4, "four"));
    }
}
