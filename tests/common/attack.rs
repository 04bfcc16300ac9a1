//! What the containment tests share: listeners a hostile program would
//! reach if the sandbox let it, referee run as root, as an ordinary user
//! or as PID 1, and looking for what a program may have left behind.

use std::fs;
use std::io::{ErrorKind, Read};
use std::net::{TcpListener, UdpSocket};
use std::os::unix::net::UnixListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The uid the tests use for "an ordinary user" (nobody).
pub const ORDINARY: u32 = 65534;

/// Whether the tests run as root (CI does; the ordinary-user and PID 1
/// runs need it to switch).
pub fn is_root() -> bool {
    // SAFETY: reading the effective uid.
    unsafe { libc::geteuid() == 0 }
}

/// A UDP socket, a TCP listener and a Unix socket on this machine, for a
/// program to send what it read: each must end up having received nothing.
pub struct Listeners {
    /// Listens on 127.0.0.1.
    pub udp: UdpSocket,
    /// Listens on 127.0.0.1.
    pub tcp: TcpListener,
    /// Listens at `unix_path`.
    pub unix: UnixListener,
    /// Where the Unix socket is.
    pub unix_path: PathBuf,
}

impl Listeners {
    /// Listeners, the Unix socket in `dir` (which must be reachable by
    /// the user referee runs as, had the sandbox let the program out).
    pub fn open(dir: &Path) -> Listeners {
        let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
        udp.set_nonblocking(true).unwrap();
        let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
        tcp.set_nonblocking(true).unwrap();
        let unix_path = dir.join("listener.sock");
        let unix = UnixListener::bind(&unix_path).unwrap();
        unix.set_nonblocking(true).unwrap();
        // Anyone may connect: only the sandbox may stop the program.
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&unix_path, fs::Permissions::from_mode(0o777)).unwrap();
        Listeners {
            udp,
            tcp,
            unix,
            unix_path,
        }
    }

    /// The values of the placeholders a hostile source has for them.
    pub fn placeholders(&self) -> Vec<(&'static str, String)> {
        vec![
            (
                "@UDP_PORT@",
                self.udp.local_addr().unwrap().port().to_string(),
            ),
            (
                "@TCP_PORT@",
                self.tcp.local_addr().unwrap().port().to_string(),
            ),
            ("@UNIX_SOCKET@", self.unix_path.display().to_string()),
        ]
    }

    /// Everything that reached a listener, in words (empty: nothing did).
    pub fn received(&self) -> Vec<String> {
        let mut got = Vec::new();
        let mut buf = [0u8; 512];
        loop {
            match self.udp.recv_from(&mut buf) {
                Ok((n, from)) => got.push(format!(
                    "UDP from {from}: {}",
                    String::from_utf8_lossy(&buf[..n])
                )),
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => panic!("{e}"),
            }
        }
        while let Ok((mut stream, from)) = self.tcp.accept() {
            let mut text = String::new();
            let _ = stream.read_to_string(&mut text);
            got.push(format!("TCP from {from}: {text}"));
        }
        while let Ok((mut stream, _)) = self.unix.accept() {
            let mut text = String::new();
            let _ = stream.read_to_string(&mut text);
            got.push(format!("Unix socket: {text}"));
        }
        got
    }
}

/// Who runs referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum As {
    /// The user running the tests.
    Me,
    /// An ordinary user (needs root to switch).
    Ordinary,
    /// The init of a PID namespace of its own, as in `docker run`.
    Pid1,
    /// Root in a container with Docker's default settings (the image of
    /// tests/container/image.sh, made and its engine started first): the
    /// test's folder is mounted at its own path, referee at
    /// /usr/local/bin.
    Container,
}

impl As {
    /// In words, for messages.
    pub fn name(self) -> &'static str {
        match self {
            As::Me => "the current user",
            As::Ordinary => "an ordinary user",
            As::Pid1 => "PID 1",
            As::Container => "root in a default Docker container",
        }
    }
}

/// The command that starts the referee binary as `who`: `setpriv` for an
/// ordinary user, `unshare` for PID 1 of a namespace of its own.
pub fn referee_command(who: As) -> Command {
    let referee = env!("CARGO_BIN_EXE_referee");
    match who {
        As::Me => Command::new(referee),
        As::Ordinary => {
            let mut c = Command::new("setpriv");
            c.args([
                format!("--reuid={ORDINARY}"),
                format!("--regid={ORDINARY}"),
                "--clear-groups".into(),
            ])
            .arg(referee);
            c
        }
        As::Pid1 => {
            let mut c = Command::new("unshare");
            c.args(["--pid", "--fork", "--mount-proc", "--kill-child"])
                .arg(referee);
            c
        }
        As::Container => panic!("a container needs its folder: use referee_as"),
    }
}

/// The image the container tests grade in, made (and Docker's engine
/// started) once by tests/container/image.sh.
pub fn container_image() -> &'static str {
    static IMAGE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    IMAGE.get_or_init(|| {
        let made = Command::new("bash")
            .arg(super::root().join("tests/container/image.sh"))
            .status()
            .expect("bash runs tests/container/image.sh");
        assert!(made.success(), "the test image could not be made");
        std::env::var("REFEREE_TEST_IMAGE").unwrap_or_else(|_| "referee-test:bookworm-jdk".into())
    })
}

/// `docker run --rm -i` with Docker's default settings, `env` given,
/// referee installed read-only at /usr/local/bin when `installed`; the
/// caller adds its own options, mounts, then the image and command.
pub fn docker_run(env: &[(&str, &str)], installed: bool) -> Command {
    let mut c = Command::new("docker");
    c.args(["run", "--rm", "-i"]).stdin(Stdio::null());
    for (k, v) in env {
        c.args(["-e", &format!("{k}={v}")]);
    }
    if installed {
        c.arg("-v").arg(format!(
            "{}:/usr/local/bin/referee:ro",
            env!("CARGO_BIN_EXE_referee")
        ));
    }
    c
}

/// `docker run` of referee in a default container, `dir` mounted at its
/// own path and the working folder, with `env`.
fn in_container(dir: &Path, env: &[(&str, &str)]) -> Command {
    let mut c = docker_run(env, true);
    c.arg("-v")
        .arg(format!("{0}:{0}", dir.display()))
        .arg("-w")
        .arg(dir)
        .args(["-e", &format!("HOME={}", dir.display())])
        .args([container_image(), "referee"]);
    c
}

/// Runs the referee binary as `who` in `dir` with `args` and `env`; with
/// `secret`, it inherits descriptor 8 open on that file, as from a shell
/// that did `exec 8<secret`.
pub fn referee_as(
    who: As,
    dir: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    secret: Option<&Path>,
) -> Output {
    if who == As::Container {
        // No descriptor crosses into a container: `secret` has nothing
        // to reach there.
        return in_container(dir, env)
            .args(args)
            .output()
            .expect("docker runs");
    }
    let mut command = referee_command(who);
    command
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .env("HOME", dir)
        .stdin(Stdio::null());
    for (k, v) in env {
        command.env(k, v);
    }
    if let Some(secret) = secret {
        let file = fs::File::open(secret).unwrap();
        let fd = std::os::fd::IntoRawFd::into_raw_fd(file);
        // SAFETY: dup2 in the child before exec; fd 8 stays open across
        // exec (dup2 clears close-on-exec).
        unsafe {
            command.pre_exec(move || {
                if libc::dup2(fd, 8) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    command.output().expect("referee starts")
}

/// Each live process (zombies aside): its /proc folder and its
/// `status` file.
fn live_processes() -> impl Iterator<Item = (PathBuf, String)> {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let status = fs::read_to_string(entry.path().join("status")).ok()?;
            let zombie = status
                .lines()
                .any(|l| l.starts_with("State:") && l.contains('Z'));
            (!zombie).then(|| (entry.path(), status))
        })
}

/// The value of field `key` in a /proc `status` file.
fn status_field<'a>(status: &'a str, key: &str) -> Option<&'a str> {
    status
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(str::trim)
}

/// Every live process whose parent chain leads to `pid`, `pid` left out.
pub fn descendants(pid: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = live_processes()
        .filter_map(|(dir, status)| {
            let child = dir.file_name()?.to_str()?.parse().ok()?;
            Some((child, status_field(&status, "PPid")?.parse().ok()?))
        })
        .collect();
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let of = found[i];
        found.extend(parents.iter().filter(|(_, p)| *p == of).map(|(c, _)| *c));
        i += 1;
    }
    found.remove(0);
    found
}

/// The processes named `name` still alive (zombies aside), by pid.
pub fn alive(name: &str) -> Vec<String> {
    live_processes()
        .filter(|(_, status)| status_field(status, "Name") == Some(name))
        .filter_map(|(dir, _)| Some(dir.file_name()?.to_string_lossy().into_owned()))
        .collect()
}

/// The processes of `uid` still alive (zombies aside), by name.
pub fn processes_of(uid: u32) -> Vec<String> {
    live_processes()
        .filter(|(_, status)| {
            status_field(status, "Uid")
                .and_then(|ids| ids.split_whitespace().next())
                .is_some_and(|real| real == uid.to_string())
        })
        .map(|(_, status)| {
            status_field(&status, "Name")
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

/// The files under `dir` holding `canary`.
pub fn holding(dir: &Path, canary: &str) -> Vec<PathBuf> {
    super::all_files(dir)
        .into_iter()
        .filter(|(_, bytes)| String::from_utf8_lossy(bytes).contains(canary))
        .map(|(path, _)| path)
        .collect()
}

/// A folder `name` in `work` that any user may write reports into, with
/// `work` and everything in it opened to every user ([`open_to_all`]):
/// where referee run as an ordinary user grades.
pub fn out_for_anyone(work: &Path, name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let out = work.join(name);
    fs::create_dir_all(&out).unwrap();
    open_to_all(work);
    fs::set_permissions(&out, fs::Permissions::from_mode(0o777)).unwrap();
    out
}

/// Opens `dir` and everything in it to every user, as a class folder
/// checked out or unzipped usually is: the sandbox, not file
/// permissions, must keep secrets.
pub fn open_to_all(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).unwrap();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let meta = fs::symlink_metadata(&path).unwrap();
        if meta.is_dir() {
            open_to_all(&path);
        } else if meta.is_file() {
            let mode = if meta.permissions().mode() & 0o100 != 0 {
                0o755
            } else {
                0o644
            };
            fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        }
    }
}
