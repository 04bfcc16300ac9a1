//! A program starts with every signal at its default handling and none
//! blocked, whatever referee ignores or blocks (as a grader started with
//! `nohup`, or from a script that ignores SIGINT, would). Its own test
//! binary: the signals must be ignored before referee's first run.

mod common;

use common::*;
use referee::run::{self, Ending, Feed, Limits};
use referee::sandbox;
use referee::submission::{self, build};

#[test]
fn programs_start_with_default_signal_handling() {
    // SAFETY: setting dispositions in this test process, before any
    // thread of ours starts a program.
    unsafe {
        libc::signal(libc::SIGUSR1, libc::SIG_IGN);
        libc::signal(libc::SIGQUIT, libc::SIG_IGN);
        libc::signal(libc::SIGINT, libc::SIG_IGN);
    }
    let submission = submission::locate(&test_file("programs/reports-its-signals.c")).unwrap();
    let built = build(&submission, &submission::Flags::default(), &[]).unwrap();
    let limits = Limits::default();
    let jail = sandbox::get().jail(&built.program.reads, &limits).unwrap();
    let result = run::run(&built.program, &[], &limits, &jail, Feed::Interactive).unwrap();
    assert_eq!(result.ending, Ending::Exited(0));
    assert_eq!(
        String::from_utf8_lossy(&result.transcript.terminal()),
        "0 not default, 0 blocked\n"
    );
}
