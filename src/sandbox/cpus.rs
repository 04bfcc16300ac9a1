//! A processor of its own for each thread that runs programs, while one
//! is free.
//!
//! A run is a relay: the program runs while its grading thread sleeps;
//! the program stops to read and the thread answers; the program exits
//! and the slot's keeper reaps it and tells the thread. With two workers
//! on two processors, each leg of the relay could wake on the processor
//! where the other worker's program was running, and wait there for its
//! time slice to end: measured on a class of Python programs with two
//! workers, 3.59 s graded with the threads free to move and 3.15 s with
//! each worker's thread, keeper and programs on one processor of their
//! own (the bare programs took 2.88 to 3.37 s in the same minutes);
//! C programs 1.40 -> 1.26 ms a run. One worker's runs are sequential,
//! so one processor loses it nothing.
//!
//! Only the processors referee may use are handed out (a `taskset` or a
//! container's cpuset narrows them), one thread each: a thread that finds
//! none free runs where the scheduler puts it, as everything did before.
//! A program pinned so gets one processor for all its threads, which is
//! what a console program of a first-year course uses.

use std::sync::Mutex;

/// Which processors are held, of those referee may use.
static HELD: Mutex<Option<Holders>> = Mutex::new(None);

/// Each processor referee may use, by number, and whether a thread
/// holds it.
#[derive(Debug)]
struct Holders(Vec<(usize, bool)>);

impl Holders {
    fn new(cpus: &[usize]) -> Holders {
        Holders(cpus.iter().map(|&cpu| (cpu, false)).collect())
    }

    /// A processor nobody holds, now held.
    fn take(&mut self) -> Option<usize> {
        let free = self.0.iter_mut().find(|(_, held)| !*held)?;
        free.1 = true;
        Some(free.0)
    }

    fn give_back(&mut self, cpu: usize) {
        if let Some(entry) = self.0.iter_mut().find(|(c, _)| *c == cpu) {
            entry.1 = false;
        }
    }
}

/// A processor held by the thread that claimed it, given back when
/// dropped (on that thread, which may then run anywhere again).
#[derive(Debug)]
pub struct Claim {
    cpu: usize,
}

impl Drop for Claim {
    fn drop(&mut self) {
        if let Ok(mut held) = HELD.lock() {
            if let Some(holders) = held.as_mut() {
                holders.give_back(self.cpu);
            }
        }
        let _ = set(0, None);
    }
}

/// A free processor for the calling thread, which is moved to it; `None`
/// when every processor referee may use is held, or the thread cannot be
/// moved. Without a claim the thread runs on every processor referee may
/// use: a thread inherits its creator's processors, and a worker started
/// by a thread that holds one (the main thread holds one while it
/// compiles) would otherwise share that one processor with its creator.
pub fn claim() -> Option<Claim> {
    let claimed = try_claim();
    if claimed.is_none() {
        let _ = set(0, None);
    }
    claimed
}

fn try_claim() -> Option<Claim> {
    let mut held = HELD.lock().ok()?;
    // Asked before any thread is moved, and kept: see `parallelism`.
    parallelism();
    let holders = held.get_or_insert_with(|| Holders::new(&allowed()));
    let cpu = holders.take()?;
    if set(0, Some(cpu)).is_err() {
        holders.give_back(cpu);
        return None;
    }
    Some(Claim { cpu })
}

/// Puts process `pid` where `claim` put the calling thread: a slot's
/// keeper, so that the programs it starts run on the thread's processor,
/// or anywhere when the thread has none.
pub fn follow(pid: libc::pid_t, claim: Option<&Claim>) {
    let _ = set(pid, claim.map(|c| c.cpu));
}

/// Lets the calling thread run on any processor referee may use: a
/// helper thread started by a thread that holds one.
pub fn free_this_thread() {
    let _ = set(0, None);
}

/// How many programs referee can run at once: what the standard library
/// says (the processors referee may use, and any control group's quota),
/// asked before any thread was moved to a processor of its own. Asked
/// later on such a thread (the main thread, once it has compiled
/// something), the standard library would say 1, and a `check` would
/// run its cases, or explore, one at a time.
pub fn parallelism() -> usize {
    static PARALLELISM: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *PARALLELISM.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The processors referee was allowed when it first asked (before any
/// thread was moved).
pub fn allowed() -> Vec<usize> {
    static ALLOWED: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    ALLOWED.get_or_init(this_thread).clone()
}

/// The processors the calling thread may run on now (none when the
/// kernel does not say).
pub fn this_thread() -> Vec<usize> {
    // SAFETY: a CPU set on the stack, filled for this thread.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        let size = std::mem::size_of::<libc::cpu_set_t>();
        if libc::sched_getaffinity(0, size, &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&cpu| libc::CPU_ISSET(cpu, &set))
            .collect()
    }
}

/// Puts `pid` (0: the calling thread) on `cpu`, or (`None`) back on every
/// processor referee may use.
fn set(pid: libc::pid_t, cpu: Option<usize>) -> std::io::Result<()> {
    // SAFETY: a CPU set on the stack, read by the call.
    let rc = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        match cpu {
            Some(cpu) => libc::CPU_SET(cpu, &mut set),
            None => allowed()
                .into_iter()
                .for_each(|cpu| libc::CPU_SET(cpu, &mut set)),
        }
        libc::sched_setaffinity(pid, std::mem::size_of::<libc::cpu_set_t>(), &set)
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_processor_goes_to_one_holder_at_a_time() {
        let mut holders = Holders::new(&[0, 2, 3]);
        let taken: Vec<usize> = std::iter::from_fn(|| holders.take()).collect();
        assert_eq!(taken, [0, 2, 3]);
        assert_eq!(holders.take(), None, "all held");
        holders.give_back(2);
        assert_eq!(holders.take(), Some(2));
        assert_eq!(holders.take(), None);
        // Giving back what nobody holds changes nothing.
        holders.give_back(7);
        assert_eq!(holders.take(), None);
    }

    #[test]
    fn a_claim_moves_its_thread_and_gives_it_back() {
        // On a thread of its own: other tests may hold processors too.
        let (during, after) = std::thread::spawn(|| {
            let claim = claim();
            let during = this_thread();
            if let Some(claim) = &claim {
                assert_eq!(during, [claim.cpu]);
            }
            drop(claim);
            (during, this_thread())
        })
        .join()
        .unwrap();
        assert!(!during.is_empty());
        assert_eq!(after, allowed(), "a thread given back runs anywhere");
    }

    /// How many programs run at once does not depend on the asking
    /// thread's processor.
    #[test]
    fn parallelism_is_the_processes_not_the_threads() {
        let unpinned = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (pinned, seen) = std::thread::spawn(|| {
            let claim = claim();
            (claim.is_some(), parallelism())
        })
        .join()
        .unwrap();
        assert_eq!(seen, unpinned, "asked on a thread that held one: {pinned}");
    }

    /// A worker started by a thread that holds a processor, finding none
    /// free, runs anywhere, not on its creator's processor.
    #[test]
    fn a_thread_without_a_claim_does_not_keep_its_creators_processor() {
        std::thread::spawn(|| {
            // This thread holds every free processor and runs on one.
            let held: Vec<Claim> = std::iter::from_fn(try_claim).collect();
            let child = std::thread::spawn(|| {
                let claim = claim();
                let cpus = claim.as_ref().map_or_else(allowed, |c| vec![c.cpu]);
                (cpus, this_thread())
            })
            .join()
            .unwrap();
            drop(held);
            let (expected, seen) = child;
            assert_eq!(seen, expected);
        })
        .join()
        .unwrap();
    }
}
