//! The conventions of a command-line tool: shell completions and manual
//! pages, generated from the command line's own definition, used as a
//! shell and `man` use them.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::process::Command;

use common::*;

fn referee() -> &'static str {
    env!("CARGO_BIN_EXE_referee")
}

/// What bash offers after `words` (the last one is being typed), with
/// referee's completion script loaded as bash-completion loads it.
fn bash_completes(words: &[&str]) -> Vec<String> {
    let script = format!(
        "source <('{}' completions bash)\n\
         COMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\nCOMP_POINT=${{#COMP_LINE}}\n\
         _referee referee \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        referee(),
        words.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(" "),
        words.len() - 1
    );
    let out = Command::new("bash").args(["-c", &script]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out).lines().map(str::to_string).collect()
}

#[test]
fn bash_completes_commands_and_their_options() {
    let offered = bash_completes(&["referee", "gr"]);
    assert_eq!(offered, ["grade", "gradescope"], "{offered:?}");
    let offered = bash_completes(&["referee", "grade", "--sh"]);
    assert_eq!(offered, ["--shard"], "{offered:?}");
    let offered = bash_completes(&["referee", "cases", "up"]);
    assert_eq!(offered, ["update"], "{offered:?}");
}

/// The commands `referee --help` lists.
fn commands() -> Vec<String> {
    let out = Command::new(referee()).arg("--help").output().unwrap();
    let help = stdout(&out);
    help.split("Commands:\n")
        .nth(1)
        .expect("--help lists the commands")
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_shell_gets_a_script_naming_every_command() {
    let commands = commands();
    assert!(commands.len() >= 10, "{commands:?}");
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = Command::new(referee())
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for command in &commands {
            assert!(script.contains(command.as_str()), "{shell} lacks {command}");
        }
        assert!(
            script.contains("allow-missing"),
            "{shell} lacks merge's options"
        );
    }
    let out = Command::new(referee())
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("possible values"), "{}", stderr(&out));
}

/// The long options `referee ARGS --help` lists.
fn options(args: &[&str]) -> BTreeSet<String> {
    let out = Command::new(referee())
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    stdout(&out)
        .split_whitespace()
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| {
            w.trim_end_matches(',')
                .split(['=', '<', '['])
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .collect()
}

#[test]
fn the_manual_has_a_page_per_command_with_every_option() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("man/man1");
    let out = referee_in(work.path(), &["man", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut pages: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    pages.sort();
    assert!(
        stdout(&out).starts_with(&format!("{} manual pages in ", pages.len())),
        "{}",
        stdout(&out)
    );
    let mut pages_of = vec![("referee.1".to_string(), vec![])];
    for command in commands() {
        pages_of.push((format!("referee-{command}.1"), vec![command.clone()]));
    }
    pages_of.push((
        "referee-cases-update.1".into(),
        vec!["cases".into(), "update".into()],
    ));
    for (page, args) in pages_of {
        assert!(pages.contains(&page), "no {page} in {pages:?}");
        // Rendered as `man` renders it.
        let shown = Command::new("groff")
            .args(["-man", "-Tutf8", "-P", "-cbou"])
            .arg(dir.join(&page))
            .output()
            .unwrap();
        assert!(shown.status.success(), "{page}: {}", stderr(&shown));
        let text = stdout(&shown).replace('\u{2010}', "-").replace("‐\n", "");
        let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        for option in options(&args) {
            assert!(
                text.contains(&option),
                "{page} does not show {option}:\n{text}"
            );
        }
        assert!(text.contains("NAME") && text.contains("SYNOPSIS"), "{page}");
    }
}

#[test]
fn a_manual_folder_that_cannot_be_made_is_refused_with_a_reason() {
    let work = tempfile::tempdir().unwrap();
    fs::write(work.path().join("file"), "").unwrap();
    let out = referee_in(work.path(), &["man", "file/man1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("file/man1: cannot make the folder"),
        "{}",
        stderr(&out)
    );
}
