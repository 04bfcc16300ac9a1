//! The one parallel work queue: a few threads, each taking the next item
//! no thread has taken yet, with results kept in the items' order. Used
//! to grade the cases of one submission and the submissions of a class.
//!
//! A class is graded a submission per worker, and a submission's cases
//! one after another on its worker (which keeps its sandbox slot). At
//! the end of a class that leaves workers idle while the last
//! submissions finish: a worker with no submission left is lent
//! ([`Spare`]) to a submission still running its cases
//! ([`map_helped`]), so no more threads run than there are workers and
//! none of them waits while cases are left.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work` done on each of `items` by up to `jobs` threads, the calling
/// thread one of them (a thread that holds something worth keeping for
/// the items, such as a sandbox slot with the program's build in it,
/// works with it instead of waiting for the others); each item's result,
/// in the items' order. An item has `None` when no thread did it: `stop`
/// was set before a thread took it, or its work panicked.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    stop: Option<&AtomicBool>,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let queue = Queue::new(items, stop);
    std::thread::scope(|scope| {
        for _ in 1..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| queue.drain(&work));
        }
        queue.drain(&work);
    });
    queue.results()
}

/// Workers that have run out of work, lent to whoever still has some.
#[derive(Debug)]
pub struct Spare {
    idle: AtomicUsize,
    /// What a thread gives up before its place is lent (its sandbox
    /// slot), so that the thread taking its place finds it.
    release: fn(),
}

impl Spare {
    /// No worker idle yet; `release` is called on a thread about to be
    /// lent, before it is.
    pub fn new(release: fn()) -> Spare {
        Spare {
            idle: AtomicUsize::new(0),
            release,
        }
    }

    fn lend(&self) {
        (self.release)();
        self.idle.fetch_add(1, Ordering::AcqRel);
    }

    fn borrow(&self) -> bool {
        self.idle
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            .is_ok()
    }

    /// Workers idle now.
    pub fn idle(&self) -> usize {
        self.idle.load(Ordering::Acquire)
    }
}

/// [`map`], where each thread that finds no item left is lent to
/// `spare` as it ends.
pub fn map_lending<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    stop: Option<&AtomicBool>,
    spare: Option<&Spare>,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let queue = Queue::new(items, stop);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| {
                queue.drain(&work);
                if let Some(spare) = spare {
                    spare.lend();
                }
            });
        }
    });
    queue.results()
}

/// `work` done on each of `items` by the calling thread, helped by any
/// worker `spare` lends meanwhile (each given back when no item is
/// left); results as [`map`]'s.
pub fn map_helped<T: Sync, R: Send>(
    items: &[T],
    stop: Option<&AtomicBool>,
    spare: &Spare,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let queue = Queue::new(items, stop);
    std::thread::scope(|scope| {
        while let Some(i) = queue.take() {
            // A helper is worth its start only with another item for it.
            if queue.left() > 0 && spare.borrow() {
                scope.spawn(|| {
                    queue.drain(&work);
                    spare.lend();
                });
            }
            queue.put(i, work(&items[i]));
        }
    });
    queue.results()
}

/// Items handed out in order, and their results.
struct Queue<'a, T, R> {
    items: &'a [T],
    stop: Option<&'a AtomicBool>,
    next: AtomicUsize,
    slots: Vec<Mutex<Option<R>>>,
}

impl<'a, T, R> Queue<'a, T, R> {
    fn new(items: &'a [T], stop: Option<&'a AtomicBool>) -> Self {
        Queue {
            items,
            stop,
            next: AtomicUsize::new(0),
            slots: items.iter().map(|_| Mutex::new(None)).collect(),
        }
    }

    /// The next item no thread has taken, unless stopped.
    fn take(&self) -> Option<usize> {
        if self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
            return None;
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        (i < self.items.len()).then_some(i)
    }

    /// Items no thread has taken yet.
    fn left(&self) -> usize {
        self.items
            .len()
            .saturating_sub(self.next.load(Ordering::Relaxed))
    }

    fn put(&self, i: usize, result: R) {
        if let Ok(mut slot) = self.slots[i].lock() {
            *slot = Some(result);
        }
    }

    fn drain(&self, work: &impl Fn(&T) -> R) {
        while let Some(i) = self.take() {
            self.put(i, work(&self.items[i]));
        }
    }

    fn results(self) -> Vec<Option<R>> {
        self.slots
            .into_iter()
            .map(|slot| slot.into_inner().ok().flatten())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_keep_the_items_order_whatever_thread_did_them() {
        let items: Vec<u64> = (0..100).collect();
        let squares = map(&items, 4, None, |n| n * n);
        let expected: Vec<Option<u64>> = items.iter().map(|n| Some(n * n)).collect();
        assert_eq!(squares, expected);
    }

    fn nothing_to_release() {}

    #[test]
    fn a_worker_out_of_items_helps_the_one_still_working() {
        use std::collections::HashSet;
        use std::time::Duration;
        let spare = Spare::new(nothing_to_release);
        let threads = Mutex::new(HashSet::new());
        let record = || {
            if let Ok(mut t) = threads.lock() {
                t.insert(std::thread::current().id());
            }
        };
        // Two submissions for two workers: the first is done at once.
        let done = map_lending(&[0u64, 1], 2, None, Some(&spare), |&item| {
            if item == 0 {
                return Vec::new();
            }
            // Its worker finds no submission left: wait until it is lent.
            while spare.idle() == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
            let cases: Vec<u64> = (0..20).collect();
            map_helped(&cases, None, &spare, |n| {
                record();
                std::thread::sleep(Duration::from_millis(2));
                n * 2
            })
        });
        let expected: Vec<Option<u64>> = (0..20).map(|n| Some(n * 2)).collect();
        assert_eq!(done, [Some(Vec::new()), Some(expected)]);
        let helped = threads.lock().map(|t| t.len()).unwrap_or(0);
        assert_eq!(helped, 2, "the cases ran on the worker and its one helper");
        assert_eq!(
            spare.idle(),
            2,
            "the helper was given back, then its worker"
        );
    }

    #[test]
    fn with_no_worker_spare_the_caller_does_every_item_itself() {
        let spare = Spare::new(nothing_to_release);
        let me = std::thread::current().id();
        let done = map_helped(&[1, 2, 3], None, &spare, |n| {
            assert_eq!(std::thread::current().id(), me);
            n + 1
        });
        assert_eq!(done, [Some(2), Some(3), Some(4)]);
    }

    #[test]
    fn a_lent_thread_gives_up_what_it_holds_first() {
        static RELEASED: AtomicUsize = AtomicUsize::new(0);
        fn release() {
            RELEASED.fetch_add(1, Ordering::SeqCst);
        }
        let spare = Spare::new(release);
        map_lending(&[1, 2, 3], 3, None, Some(&spare), |n| *n);
        assert_eq!(RELEASED.load(Ordering::SeqCst), 3);
        assert_eq!(spare.idle(), 3);
    }

    #[test]
    fn the_calling_thread_works_beside_the_others() {
        use std::collections::HashSet;
        let me = std::thread::current().id();
        let threads = Mutex::new(HashSet::new());
        let items: Vec<u64> = (0..40).collect();
        let done = map(&items, 3, None, |n| {
            if let Ok(mut t) = threads.lock() {
                t.insert(std::thread::current().id());
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
            n + 1
        });
        let expected: Vec<Option<u64>> = items.iter().map(|n| Some(n + 1)).collect();
        assert_eq!(done, expected);
        let threads = threads.into_inner().unwrap();
        assert!(threads.contains(&me), "the caller took items too");
        assert!(
            threads.len() <= 3,
            "no more threads than jobs: {}",
            threads.len()
        );
    }

    #[test]
    fn nothing_is_taken_after_stop() {
        let stop = AtomicBool::new(true);
        let done = map(&[1, 2, 3], 2, Some(&stop), |n| *n);
        assert_eq!(done, [None, None, None]);
    }
}
