//! The pseudo-terminal a program runs on.
//!
//! On a terminal, C stdio flushes a prompt before each read and keeps
//! whatever was printed before a kill (all but a partial line still in
//! stdio's buffer), and Python writes `input()` prompts where they are
//! seen. Echo and output post-processing are off, so the bytes read from
//! the master are exactly the bytes the program wrote, as through a pipe.
//! Line editing and signal characters are off too, so any byte of a case's
//! input reaches the program as typed; the terminal stays in line mode, so
//! a read returns at most one line, as when a person types.

use std::ffi::CStr;
use std::fs::File;
use std::io;
#[cfg(test)]
use std::io::{Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};

use nix::errno::Errno;
use std::path::PathBuf;

use nix::fcntl::OFlag;
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::pty::{grantpt, posix_openpt, unlockpt, PtyMaster};
use nix::sys::termios::{
    self, ControlFlags, InputFlags, LocalFlags, OutputFlags, SetArg, SpecialCharacterIndices,
};

/// The longest line a terminal in line mode accepts (the kernel keeps
/// 4095 bytes and a newline); longer case input cannot be typed.
pub const MAX_LINE: usize = 4095;

/// Both ends of a pseudo-terminal. The runner keeps the slave open too:
/// to ask how much typed input is still unread, and to push what it typed
/// through to the program before looking again.
pub struct Pty {
    master: PtyMaster,
    slave: File,
    /// The settings [`Pty::open`] made, which [`Pty::reset`] restores.
    configured: libc::termios,
}

impl Pty {
    /// Opens a terminal configured for running a program: 80×24, no echo,
    /// no output processing, no special characters, line mode. Both ends
    /// are close-on-exec, so no other program started meanwhile inherits
    /// them.
    pub fn open() -> io::Result<Pty> {
        let master = posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC)?;
        grantpt(&master)?;
        unlockpt(&master)?;
        let path = slave_path(&master)?;
        let slave = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags_noctty_cloexec()
            .open(&path)?;
        configure(slave.as_fd())?;
        let configured = termios::tcgetattr(slave.as_fd())?.into();
        set_window_size(slave.as_fd())?;
        set_nonblocking(master.as_fd())?;
        Ok(Pty {
            master,
            slave,
            configured,
        })
    }

    /// Makes a terminal used by an earlier run as good as new: what that
    /// run's program left unread (input) or uncollected (output) is
    /// dropped, and the settings and size it may have changed are set
    /// again.
    pub fn reset(&self) -> io::Result<()> {
        termios::tcflush(self.slave.as_fd(), termios::FlushArg::TCIOFLUSH)?;
        let mut buf = [0u8; 4096];
        while self.read_output(&mut buf)? > 0 {}
        // Few programs change their terminal's settings: looking costs
        // one call, setting them again three.
        let configured = termios::Termios::from(self.configured);
        if termios::tcgetattr(self.slave.as_fd())? != configured {
            termios::tcsetattr(self.slave.as_fd(), SetArg::TCSANOW, &configured)?;
        }
        set_window_size(self.slave.as_fd())
    }

    /// Makes `byte` the terminal's end-of-input character (Ctrl-D) until
    /// the next [`Pty::reset`]: typed at the start of a line, it makes
    /// the program's read return nothing, the end of its input. Off by
    /// default, so that every byte of a case's input is typed as it is.
    pub fn allow_end_of_input(&self, byte: u8) -> io::Result<()> {
        let mut t = termios::tcgetattr(self.slave.as_fd())?;
        t.control_chars[SpecialCharacterIndices::VEOF as usize] = byte;
        termios::tcsetattr(self.slave.as_fd(), termios::SetArg::TCSANOW, &t)?;
        Ok(())
    }

    /// A duplicate of the slave end, for the program's stdin, stdout and
    /// stderr.
    pub fn slave_for_child(&self) -> io::Result<OwnedFd> {
        Ok(self.slave.try_clone()?.into())
    }

    /// The slave end, as the runner holds it.
    pub fn slave(&self) -> BorrowedFd<'_> {
        self.slave.as_fd()
    }

    /// The master end: output is read here, input written here.
    pub fn master(&self) -> BorrowedFd<'_> {
        self.master.as_fd()
    }

    /// Reads what the program printed into `buf`; `Ok(0)` when nothing is
    /// waiting. Before saying nothing is waiting, the kernel pushes through
    /// everything the program wrote, so after the program has stopped to
    /// read, one call that returns 0 means all its output is here.
    pub fn read_output(&self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match nix::unistd::read(self.master.as_fd(), buf) {
                Ok(n) => return Ok(n),
                Err(Errno::EAGAIN) | Err(Errno::EIO) => return Ok(0),
                Err(Errno::EINTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Types `line` and a newline, and waits until the kernel has
    /// delivered them to the slave, so that [`Pty::unread_input`] counts
    /// them.
    pub fn type_line(&self, line: &str) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        self.type_bytes(&bytes, true)
    }

    /// Types `bytes`. With `push`, waits until the kernel has delivered
    /// them to the slave (a program woken by a read reaches for them
    /// itself, so a caller that lets a held read go ahead need not wait).
    pub fn type_bytes(&self, bytes: &[u8], push: bool) -> io::Result<()> {
        let mut written = 0;
        while written < bytes.len() {
            match nix::unistd::write(self.master.as_fd(), &bytes[written..]) {
                Ok(n) => written += n,
                Err(Errno::EAGAIN) => wait_writable(self.master.as_fd())?,
                Err(Errno::EINTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
        if push {
            self.push_input_through();
        }
        Ok(())
    }

    /// Bytes typed but not yet read by the program.
    pub fn unread_input(&self) -> io::Result<usize> {
        let mut count: libc::c_int = 0;
        // SAFETY: FIONREAD writes one c_int through the pointer.
        let rc = unsafe { libc::ioctl(self.slave.as_raw_fd(), libc::FIONREAD, &mut count) };
        if rc < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// Bytes written to the master reach the slave asynchronously; polling
    /// the slave makes the kernel finish the delivery first.
    fn push_input_through(&self) {
        let mut fds = [PollFd::new(self.slave.as_fd(), PollFlags::POLLIN)];
        let _ = poll(&mut fds, PollTimeout::ZERO);
    }
}

trait NoCttyCloexec {
    fn custom_flags_noctty_cloexec(&mut self) -> &mut Self;
}

impl NoCttyCloexec for std::fs::OpenOptions {
    fn custom_flags_noctty_cloexec(&mut self) -> &mut Self {
        use std::os::unix::fs::OpenOptionsExt;
        // std adds O_CLOEXEC itself.
        self.custom_flags(libc::O_NOCTTY)
    }
}

fn slave_path(master: &PtyMaster) -> io::Result<PathBuf> {
    let mut buf = [0 as libc::c_char; 128];
    // SAFETY: ptsname_r writes a NUL-terminated path of at most buf.len().
    let rc = unsafe { libc::ptsname_r(master.as_raw_fd(), buf.as_mut_ptr(), buf.len()) };
    if rc != 0 {
        return Err(io::Error::from_raw_os_error(rc));
    }
    // SAFETY: on success the buffer holds a NUL-terminated string.
    let name = unsafe { CStr::from_ptr(buf.as_ptr()) };
    Ok(PathBuf::from(name.to_string_lossy().into_owned()))
}

fn configure(slave: BorrowedFd<'_>) -> io::Result<()> {
    let mut t = termios::tcgetattr(slave)?;
    t.local_flags.remove(
        LocalFlags::ECHO
            | LocalFlags::ECHOE
            | LocalFlags::ECHOK
            | LocalFlags::ECHONL
            | LocalFlags::ECHOCTL
            | LocalFlags::ECHOKE
            | LocalFlags::ISIG
            | LocalFlags::IEXTEN,
    );
    t.local_flags.insert(LocalFlags::ICANON);
    t.input_flags.remove(
        InputFlags::ICRNL
            | InputFlags::INLCR
            | InputFlags::IGNCR
            | InputFlags::IXON
            | InputFlags::IXOFF
            | InputFlags::IXANY
            | InputFlags::ISTRIP
            | InputFlags::BRKINT
            | InputFlags::IMAXBEL,
    );
    t.output_flags.remove(OutputFlags::OPOST);
    t.control_flags.insert(ControlFlags::CS8);
    // 0 disables a special character (and NUL stays an ordinary byte).
    for cc in [
        SpecialCharacterIndices::VINTR,
        SpecialCharacterIndices::VQUIT,
        SpecialCharacterIndices::VERASE,
        SpecialCharacterIndices::VKILL,
        SpecialCharacterIndices::VEOF,
        SpecialCharacterIndices::VEOL,
        SpecialCharacterIndices::VEOL2,
        SpecialCharacterIndices::VSTART,
        SpecialCharacterIndices::VSTOP,
        SpecialCharacterIndices::VSUSP,
        SpecialCharacterIndices::VREPRINT,
        SpecialCharacterIndices::VWERASE,
        SpecialCharacterIndices::VLNEXT,
        SpecialCharacterIndices::VDISCARD,
    ] {
        t.control_chars[cc as usize] = 0;
    }
    termios::tcsetattr(slave, SetArg::TCSANOW, &t)?;
    Ok(())
}

fn set_window_size(slave: BorrowedFd<'_>) -> io::Result<()> {
    let size = libc::winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: TIOCSWINSZ reads one winsize through the pointer.
    if unsafe { libc::ioctl(slave.as_raw_fd(), libc::TIOCSWINSZ, &size) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn set_nonblocking(fd: BorrowedFd<'_>) -> io::Result<()> {
    let flags = nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_GETFL)?;
    let flags = OFlag::from_bits_retain(flags) | OFlag::O_NONBLOCK;
    nix::fcntl::fcntl(fd, nix::fcntl::FcntlArg::F_SETFL(flags))?;
    Ok(())
}

fn wait_writable(fd: BorrowedFd<'_>) -> io::Result<()> {
    let mut fds = [PollFd::new(fd, PollFlags::POLLOUT)];
    poll(&mut fds, PollTimeout::from(100u16))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_lines_arrive_whole_and_unechoed() {
        let pty = Pty::open().unwrap();
        pty.type_line("c3 1r").unwrap();
        assert_eq!(pty.unread_input().unwrap(), 6);
        let mut buf = [0u8; 64];
        assert_eq!(pty.read_output(&mut buf).unwrap(), 0, "no echo");
        let mut slave = &pty.slave;
        let n = slave.read(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"c3 1r\n");
        assert_eq!(pty.unread_input().unwrap(), 0);
    }

    #[test]
    fn output_is_not_post_processed() {
        let pty = Pty::open().unwrap();
        (&pty.slave).write_all(b"a\nb\r\n\x1b[2J").unwrap();
        let mut buf = [0u8; 64];
        let n = pty.read_output(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"a\nb\r\n\x1b[2J");
    }

    #[test]
    fn special_characters_are_ordinary_input() {
        let pty = Pty::open().unwrap();
        let line = "\x03\x04\x7f\x15\x17\x13\x11\x16\x1a\0\r";
        pty.type_line(line).unwrap();
        let mut buf = [0u8; 64];
        let n = (&pty.slave).read(&mut buf).unwrap();
        assert_eq!(&buf[..n], format!("{line}\n").as_bytes());
    }
}
