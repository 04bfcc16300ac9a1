//! The one parallel work queue: a few threads, each taking the next item
//! no thread has taken yet, with results kept in the items' order. Used
//! to grade the cases of one submission and the submissions of a class.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// `work` done on each of `items` by up to `jobs` threads; each item's
/// result, in the items' order. An item has `None` when no thread did it:
/// `stop` was set before a thread took it, or its work panicked.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    stop: Option<&AtomicBool>,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            scope.spawn(|| loop {
                if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let result = work(item);
                if let Ok(mut slot) = slots[i].lock() {
                    *slot = Some(result);
                }
            });
        }
    });
    slots
        .into_iter()
        .map(|slot| slot.into_inner().ok().flatten())
        .collect()
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

    #[test]
    fn nothing_is_taken_after_stop() {
        let stop = AtomicBool::new(true);
        let done = map(&[1, 2, 3], 2, Some(&stop), |n| *n);
        assert_eq!(done, [None, None, None]);
    }
}
