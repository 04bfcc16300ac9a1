//! A held program's memory, written and read to answer its calls (the
//! line a read gets, the terminal's answers to its questions).
//!
//! Referee writes it itself where the kernel lets it: `process_vm_writev`,
//! or `/proc/PID/mem` where a seccomp profile refuses that (Docker's,
//! without `CAP_SYS_PTRACE`) but the program is of referee's own user.
//! Where it may not (root without `CAP_SYS_PTRACE`, the program of the
//! slot's user: a default container, as Gradescope starts one), the
//! slot's keeper opens `/proc/PID/mem` for it: the keeper is the
//! program's ancestor and of its user, which the kernel lets in (see
//! [`crate::sandbox::keeper::Keeper::open_memory`]). Once per process,
//! and again after it calls `exec` (its memory is then new).
//!
//! Without this, such a run is served by typing each line on the
//! program's terminal, with its output through the terminal too: some
//! 1.8× a run's time.

use std::fs::File;
use std::io::{self, IoSlice, IoSliceMut};
use std::os::unix::fs::FileExt;

use nix::errno::Errno;
use nix::sys::uio::{process_vm_readv, process_vm_writev, RemoteIoVec};
use nix::unistd::Pid;

use crate::sandbox::Jail;

/// The most processes whose memory a run keeps open: a program that keeps
/// starting processes only makes the keeper open them again.
const MOST_KEPT: usize = 64;

/// The memory of a run's processes.
pub struct Memory<'j> {
    jail: &'j Jail,
    /// Whether referee may still try by itself: not after its first
    /// refusal (every process of a slot is of the same user).
    direct: bool,
    /// Each process's memory as its keeper opened it; `None` where it
    /// could not.
    opened: Vec<(i32, Option<File>)>,
}

impl<'j> Memory<'j> {
    /// The memory of the processes run in `jail`.
    pub fn new(jail: &'j Jail) -> Memory<'j> {
        Memory {
            jail,
            direct: !jail.memory_through_keeper(),
            opened: Vec::new(),
        }
    }

    /// Copies `bytes` to `address` in process `pid`; how many were
    /// copied. EFAULT where the program has nothing mapped there; another
    /// error where nobody may write it.
    pub fn write(&mut self, pid: i32, address: u64, bytes: &[u8]) -> io::Result<usize> {
        if self.direct {
            match write_directly(pid, address, bytes) {
                Err(e) if refused(&e) => self.direct = false,
                done => return done,
            }
        }
        self.through_keeper(pid, bytes.len(), |file| file.write_at(bytes, address))
    }

    /// Copies from `address` in process `pid` into `buf`; how many were
    /// copied.
    pub fn read(&mut self, pid: i32, address: u64, buf: &mut [u8]) -> io::Result<usize> {
        if self.direct {
            match read_directly(pid, address, buf) {
                Err(e) if refused(&e) => self.direct = false,
                done => return done,
            }
        }
        let len = buf.len();
        self.through_keeper(pid, len, |file| file.read_at(buf, address))
    }

    /// `op` on process `pid`'s memory as its keeper opened it. Nothing
    /// copied of something means the memory opened is no longer the
    /// process's (it called `exec`): opened again, once.
    fn through_keeper(
        &mut self,
        pid: i32,
        len: usize,
        mut op: impl FnMut(&File) -> io::Result<usize>,
    ) -> io::Result<usize> {
        for again in [false, true] {
            let Some(file) = self.opened(pid, again) else {
                break;
            };
            match op(file).map_err(unmapped_is_fault) {
                Ok(0) if len > 0 => continue,
                done => return done,
            }
        }
        Err(io::Error::from_raw_os_error(libc::EPERM))
    }

    /// Process `pid`'s memory, asked of the keeper the first time (or
    /// `again`).
    fn opened(&mut self, pid: i32, again: bool) -> Option<&File> {
        let at = self.opened.iter().position(|(p, _)| *p == pid);
        let at = match at {
            Some(at) if !again => at,
            _ => {
                if let Some(at) = at {
                    self.opened.swap_remove(at);
                }
                if self.opened.len() >= MOST_KEPT {
                    self.opened.clear();
                }
                let file = self.jail.open_memory(pid).ok().map(File::from);
                self.opened.push((pid, file));
                self.opened.len() - 1
            }
        };
        self.opened[at].1.as_ref()
    }
}

/// Whether the kernel refused referee itself.
fn refused(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EPERM | libc::EACCES))
}

/// Copies `bytes` to `address` in process `pid` as referee; how many
/// were copied.
fn write_directly(pid: i32, address: u64, bytes: &[u8]) -> io::Result<usize> {
    let remote = [RemoteIoVec {
        base: address as usize,
        len: bytes.len(),
    }];
    match process_vm_writev(Pid::from_raw(pid), &[IoSlice::new(bytes)], &remote) {
        Err(Errno::EPERM | Errno::ENOSYS) => proc_mem(pid, true)?
            .write_at(bytes, address)
            .map_err(unmapped_is_fault),
        done => Ok(done?),
    }
}

/// Copies from `address` in process `pid` into `buf` as referee; how
/// many were copied.
fn read_directly(pid: i32, address: u64, buf: &mut [u8]) -> io::Result<usize> {
    let remote = [RemoteIoVec {
        base: address as usize,
        len: buf.len(),
    }];
    match process_vm_readv(Pid::from_raw(pid), &mut [IoSliceMut::new(buf)], &remote) {
        Err(Errno::EPERM | Errno::ENOSYS) => proc_mem(pid, false)?
            .read_at(buf, address)
            .map_err(unmapped_is_fault),
        done => Ok(done?),
    }
}

/// Process `pid`'s memory as a file, where a seccomp profile refuses
/// `process_vm_*` but the kernel lets referee's own user in.
fn proc_mem(pid: i32, write: bool) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .open(format!("/proc/{pid}/mem"))
}

/// `/proc/PID/mem` says EIO where `process_vm_*` says EFAULT: an address
/// the program has not mapped.
fn unmapped_is_fault(e: io::Error) -> io::Error {
    if e.raw_os_error() == Some(libc::EIO) {
        io::Error::from_raw_os_error(libc::EFAULT)
    } else {
        e
    }
}
