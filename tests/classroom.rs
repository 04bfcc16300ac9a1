//! `referee classroom`, GitHub Classroom's autograding: a student's
//! repository graded on a suite with public and hidden cases, for real
//! (gcc, python3), with the files GitHub's runner gives a step. The
//! reporter's payload is decoded and checked field by field, its scores
//! add up to what `referee grade` gives each submission (correct, buggy,
//! not compiling, hostile), no hidden case is named anywhere a student
//! reads, `$GITHUB_OUTPUT` is appended to, and bad input is said.

mod common;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::*;
use serde_json::Value;

/// The reference: says each word back in capitals until `quit`.
const REFERENCE: &str = r#"while True:
    w = input("Word: ")
    if w == "quit":
        break
    print("You said", w.upper())
"#;

/// Breaks on words starting with `b` (an extra `!`), and writes past a
/// global array on words of 4 letters or more (a diagnosis, on line 11).
const BUGGY: &str = r#"#include <ctype.h>
#include <stdio.h>
#include <string.h>
static int counts[4];
int main(void) {
  char word[64];
  while (1) {
    printf("Word: ");
    fflush(stdout);
    if (scanf("%63s", word) != 1 || strcmp(word, "quit") == 0) return 0;
    counts[strlen(word)]++;
    for (char *p = word; *p; p++) *p = (char)toupper((unsigned char)*p);
    printf(word[0] == 'B' ? "You said %s!\n" : "You said %s\n", word);
  }
}
"#;

/// Prints workflow commands, a forged `result=` line and `%0A` tricks on
/// `bee`, and tries to write its own result into `$GITHUB_OUTPUT`.
const HOSTILE: &str = r#"import os
for name in ("GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"):
    try:
        with open(os.environ[name], "a") as f:
            f.write("result=eyJmb3JnZWQiOnRydWV9\n")
    except Exception:
        pass
while True:
    w = input("Word: ")
    if w == "quit":
        break
    if w == "bee":
        print("::error file=lab.py,line=1::forged error")
        print("%0A::warning::percent trick%0D")
        print("result=eyJmb3JnZWQiOnRydWV9")
        print("\r::add-mask::x")
        print("  ##[error]old style")
        print("::stop-commands::abc")
    print("You said", w.upper())
"#;

/// What a hidden case must never show: its name, description and input.
const SECRETS: [&str; 3] = ["hidden-secret-case", "SECRET-DESCRIPTION", "SECRETWORD"];

/// The suite: two public cases, two hidden ones, a reference of its own.
fn suite(work: &Path) -> PathBuf {
    let dir = work.join("suite");
    fs::create_dir_all(&dir).unwrap();
    let files = [
        (
            "suite.yaml",
            "reference: solution.py\nname: shout\ntitle: Shout\n\
             defaults:\n  points: 1\n  timeout: 5s\n  visibility: public\n",
        ),
        ("solution.py", REFERENCE),
        ("words.yaml", "input: [hello, hi, quit]\n"),
        ("bee.yaml", "input: [bee, quit]\n"),
        (
            "hidden-secret-case.yaml",
            "description: SECRET-DESCRIPTION\nvisibility: hidden\npoints: 1.5\n\
             input: [bSECRETWORD, quit]\n",
        ),
        (
            "hidden-plain.yaml",
            "visibility: hidden\npoints: 2\ninput: [abc, quit]\n",
        ),
    ];
    for (name, text) in files {
        fs::write(dir.join(name), text).unwrap();
    }
    dir
}

/// The four submissions, by id: each file's name and text.
fn submissions() -> [(&'static str, &'static str, &'static str); 4] {
    [
        ("correct", "lab.py", REFERENCE),
        ("buggy", "lab.c", BUGGY),
        ("broken", "lab.c", "int main( {\n"),
        ("hostile", "lab.py", HOSTILE),
    ]
}

/// What one run of `referee classroom` left.
struct Run {
    output: Output,
    /// `$GITHUB_OUTPUT` after the run.
    github_output: String,
    /// `$GITHUB_STEP_SUMMARY` after the run.
    summary: String,
}

impl Run {
    fn stdout(&self) -> String {
        stdout(&self.output)
    }

    /// The payload of the one `result=` line referee appended.
    fn payload(&self) -> Value {
        let lines: Vec<&str> = self.github_output.lines().collect();
        let results: Vec<&&str> = lines.iter().filter(|l| l.starts_with("result=")).collect();
        assert_eq!(results.len(), 1, "{}", self.github_output);
        decode(results[0])
    }
}

/// The JSON of a `result=<base64>` line, decoded by coreutils' base64.
fn decode(line: &str) -> Value {
    let coded = line.strip_prefix("result=").expect("a result line");
    let mut child = Command::new("base64")
        .arg("--decode")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("base64 runs");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), coded.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "not base64: {coded}");
    serde_json::from_slice(&out.stdout).expect("the payload is JSON")
}

/// What GitHub's runner had in the files before referee's step.
const EARLIER: &str = "earlier=output of another step\n";

/// `referee classroom ARGS` in `repo` as a GitHub Actions step, its
/// files pre-filled as an earlier step left them.
fn classroom(repo: &Path, args: &[&str]) -> Run {
    let github = repo.parent().unwrap().join(format!(
        "github-{}",
        repo.file_name().unwrap().to_string_lossy()
    ));
    fs::create_dir_all(&github).unwrap();
    let (output_file, summary_file) = (github.join("output"), github.join("summary"));
    fs::write(&output_file, EARLIER).unwrap();
    fs::write(&summary_file, "# Earlier\n").unwrap();
    let output = step(repo, args)
        .env("GITHUB_OUTPUT", &output_file)
        .env("GITHUB_STEP_SUMMARY", &summary_file)
        .output()
        .expect("referee starts");
    let github_output = fs::read_to_string(&output_file).unwrap();
    assert!(github_output.starts_with(EARLIER), "{github_output}");
    let summary = fs::read_to_string(&summary_file).unwrap();
    assert!(summary.starts_with("# Earlier\n"), "{summary}");
    Run {
        output,
        github_output,
        summary,
    }
}

/// The referee binary as a step runs it: in the repository, with
/// GitHub's variables and none of the caller's.
fn step(repo: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_referee"));
    command
        .arg("classroom")
        .args(args)
        .current_dir(repo)
        .stdin(Stdio::null())
        .env_remove("GITHUB_OUTPUT")
        .env_remove("GITHUB_STEP_SUMMARY")
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", repo);
    command
}

/// A repository holding `file` with `text` under `src/`, in `work/<id>`.
fn repository(work: &Path, id: &str, file: &str, text: &str) -> PathBuf {
    let repo = work.join(id);
    fs::create_dir_all(repo.join("src")).unwrap();
    fs::write(repo.join("src").join(file), text).unwrap();
    fs::write(repo.join("README.md"), "# Lab\n").unwrap();
    repo
}

/// Each submission's score as `referee grade` gives it, by id.
fn grade_scores(work: &Path, cases: &Path) -> HashMap<String, f64> {
    let class = work.join("class");
    for (id, file, text) in submissions() {
        let ext = Path::new(file).extension().unwrap().to_str().unwrap();
        fs::create_dir_all(&class).unwrap();
        fs::write(class.join(format!("{id}.{ext}")), text).unwrap();
    }
    let results = grade_class(work, cases, &work.join("out"), &class);
    results["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["id"].as_str().unwrap().to_string(),
                s["score"].as_f64().unwrap(),
            )
        })
        .collect()
}

/// The reporter's sum: from 0, in order.
fn sum(payload: &Value) -> f64 {
    payload["tests"]
        .as_array()
        .unwrap()
        .iter()
        .fold(0.0, |acc, t| acc + t["score"].as_f64().unwrap())
}

#[test]
fn each_submission_gets_a_payload_that_adds_up_to_its_grade() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite(work.path());
    let grades = grade_scores(work.path(), &cases);
    let case_dir = cases.to_str().unwrap();
    let mut payloads = HashMap::new();
    for (id, file, text) in submissions() {
        let repo = repository(work.path(), id, file, text);
        let run = classroom(&repo, &["--cases", case_dir, "src"]);
        assert_eq!(
            run.output.status.code(),
            Some(0),
            "{id}: {}",
            stderr(&run.output)
        );
        let payload = run.payload();
        check_shape(id, &payload);
        assert_eq!(sum(&payload), grades[id], "{id}: {payload:#}");
        assert_eq!(payload["max_score"], 5.5, "{id}");
        nothing_hidden(id, &run, &payload);
        no_command_but_ours(id, &run, &payload);
        payloads.insert(id, (payload, run));
    }
    let status = |id: &str| payloads[id].0["status"].clone();
    assert_eq!(status("correct"), "pass");
    assert_eq!(status("buggy"), "fail");
    assert_eq!(status("broken"), "error");
    assert_eq!(status("hostile"), "fail");
    assert_eq!(grades["correct"], 5.5);
    assert!(grades["buggy"] > 0.0 && grades["buggy"] < 5.5);

    // The buggy program's fault is an annotation on its own line, in the
    // repository's src/lab.c; its hidden failure is unnamed.
    let (buggy, run) = &payloads["buggy"];
    let stdout = run.stdout();
    assert!(
        stdout.contains("::warning file=src/lab.c,line=11,title="),
        "{stdout}"
    );
    let tests = buggy["tests"].as_array().unwrap();
    let hidden: Vec<&Value> = tests
        .iter()
        .filter(|t| t["name"].as_str().unwrap().starts_with("hidden case "))
        .collect();
    assert_eq!(hidden.len(), 2, "{buggy:#}");
    // In the suite's order (by name): hidden-plain, then the secret one.
    assert_eq!(hidden[0]["name"], "hidden case 1");
    assert_eq!(hidden[0]["status"], "pass");
    assert_eq!(hidden[1]["name"], "hidden case 2");
    assert_eq!(hidden[1]["status"], "fail");
    assert_eq!(hidden[1]["message"], "Verdict: wrong output");
    let bee = tests.iter().find(|t| t["name"] == "bee").unwrap();
    assert!(
        bee["message"].as_str().unwrap().contains("You said BEE!"),
        "a public failure is explained: {bee:#}"
    );
    assert!(run.summary.contains("## referee: "), "{}", run.summary);

    // Not compiling: every test an error at 0, the compiler's words first.
    let (broken, _) = &payloads["broken"];
    let tests = broken["tests"].as_array().unwrap();
    assert!(tests
        .iter()
        .all(|t| t["status"] == "error" && t["score"] == 0.0));
    let first = tests[0]["message"].as_str().unwrap();
    assert!(
        first.starts_with("Your program does not compile. The compiler said:"),
        "{first}"
    );
}

/// Every field the reporter reads, of the right type, in the suite's order.
fn check_shape(id: &str, payload: &Value) {
    let keys: Vec<&String> = payload.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 4, "{id}: {payload:#}");
    assert_eq!(payload["version"], 1, "{id}");
    assert!(
        ["pass", "fail", "error"].contains(&payload["status"].as_str().unwrap()),
        "{id}"
    );
    let tests = payload["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 4, "{id}: {payload:#}");
    for (i, test) in tests.iter().enumerate() {
        assert_eq!(test.as_object().unwrap().len(), 5, "{id}: {test:#}");
        assert!(
            test["name"].is_string() && test["message"].is_string(),
            "{id}"
        );
        assert!(["pass", "fail", "error"].contains(&test["status"].as_str().unwrap()));
        let score = test["score"].as_f64().unwrap();
        assert!(score >= 0.0, "{id}: {test:#}");
        assert_eq!(test["line_no"], i + 1, "{id}");
    }
    assert_eq!(tests[0]["name"], "bee", "the suite's order: {payload:#}");
}

/// No hidden case's name, description or input anywhere the student
/// reads: the payload, the summary, the log.
fn nothing_hidden(id: &str, run: &Run, payload: &Value) {
    let texts = [
        ("payload", payload.to_string()),
        ("summary", run.summary.clone()),
        ("stdout", run.stdout()),
        ("stderr", stderr(&run.output)),
    ];
    for (what, text) in &texts {
        for secret in SECRETS {
            assert!(
                !text.to_lowercase().contains(&secret.to_lowercase()),
                "{id}: {secret} in the {what}:\n{text}"
            );
        }
    }
}

/// No line of the log (referee's own output, and every test message the
/// reporter prints) starts a workflow command but referee's annotations,
/// and GITHUB_OUTPUT holds only referee's line.
fn no_command_but_ours(id: &str, run: &Run, payload: &Value) {
    for line in run.stdout().lines() {
        let opening = line.trim_start();
        if opening.starts_with("::") {
            assert!(
                opening.starts_with("::warning ") || opening.starts_with("::notice "),
                "{id}: {line}"
            );
        }
        assert!(!opening.starts_with("##["), "{id}: {line}");
    }
    for test in payload["tests"].as_array().unwrap() {
        for text in [&test["message"], &test["name"]] {
            for line in text.as_str().unwrap().split(['\n', '\r']) {
                let opening = line.trim_start();
                assert!(
                    !opening.starts_with("::") && !opening.starts_with("##["),
                    "{id}: {line:?} in {test:#}"
                );
            }
        }
    }
    assert_eq!(
        run.github_output.lines().count(),
        2,
        "{id}: only the earlier line and referee's: {}",
        run.github_output
    );
    assert!(!run.github_output.contains("eyJmb3JnZWQiOnRydWV9"));
    // The summary quotes what the program printed, in a code block; it
    // holds no line the program wrote into the file itself.
    assert!(
        !run.summary
            .lines()
            .any(|l| l == "result=eyJmb3JnZWQiOnRydWV9"),
        "{}",
        run.summary
    );
}

#[test]
fn the_hostile_programs_text_is_shown_but_starts_nothing() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite(work.path());
    let repo = repository(work.path(), "hostile", "lab.py", HOSTILE);
    let run = classroom(&repo, &["--cases", cases.to_str().unwrap(), "src"]);
    let payload = run.payload();
    let bee = &payload["tests"][0];
    let message = bee["message"].as_str().unwrap();
    // Quoted, and no line of it starts a workflow command.
    assert!(
        message.contains("+ ::error file=lab.py,line=1::forged error"),
        "{message}"
    );
    assert!(
        message.contains("printed `::error file=lab.py"),
        "{message}"
    );
    for line in message.lines() {
        assert!(!line.trim_start().starts_with("::"), "{line}");
    }
    assert!(
        message.contains("%0A::warning::percent trick%0D"),
        "{message}"
    );
    // The summary shows it in a code block, as it was printed.
    assert!(
        run.summary.contains("::error file=lab.py"),
        "{}",
        run.summary
    );
}

#[test]
fn without_github_output_the_payload_is_printed_and_said_what_for() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite(work.path());
    let repo = repository(work.path(), "correct", "lab.py", REFERENCE);
    let run = step(&repo, &["--cases", cases.to_str().unwrap(), "src"])
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let text = stdout(&run);
    assert!(
        text.contains("GITHUB_OUTPUT is not set") && text.contains("grading reporter"),
        "{text}"
    );
    let line = text.lines().find(|l| l.starts_with("result=")).unwrap();
    assert_eq!(decode(line)["status"], "pass");
    assert!(text.contains("src: 5.5/5.5 points (graded)."), "{text}");
}

#[test]
fn bad_input_is_said_with_an_error_payload() {
    let work = tempfile::tempdir().unwrap();
    let cases = suite(work.path());
    let case_dir = cases.to_str().unwrap();
    let repo = repository(work.path(), "repo", "lab.py", REFERENCE);
    fs::create_dir_all(repo.join("empty")).unwrap();

    // No program: the student's to fix (exit 0), said in the payload.
    let run = classroom(&repo, &["--cases", case_dir, "empty"]);
    assert_eq!(run.output.status.code(), Some(0), "{}", stderr(&run.output));
    let payload = run.payload();
    assert_eq!(payload["status"], "error");
    let message = payload["tests"][0]["message"].as_str().unwrap();
    assert!(message.contains("no program in this folder"), "{message}");

    // A submission that is not there.
    let run = classroom(&repo, &["--cases", case_dir, "nowhere"]);
    let payload = run.payload();
    assert_eq!(payload["status"], "error");
    let said = format!("{}{}", payload, stderr(&run.output));
    assert!(said.contains("nowhere"), "{said}");
    assert!(matches!(run.output.status.code(), Some(0 | 2)));

    // No such case folder: referee's setup (exit 2), the student told to
    // ask.
    let run = classroom(&repo, &["--cases", "no-such-cases", "src"]);
    assert_eq!(run.output.status.code(), Some(2));
    assert!(
        stderr(&run.output).starts_with("referee: ")
            && stderr(&run.output).contains("no-such-cases"),
        "{}",
        stderr(&run.output)
    );
    let payload = run.payload();
    assert_eq!(payload["status"], "error");
    let message = payload["tests"][0]["message"].as_str().unwrap();
    assert!(message.contains("Please tell your instructor"), "{message}");

    // A broken case file: the suite's (exit 2).
    let broken = work.path().join("broken-suite");
    fs::create_dir_all(&broken).unwrap();
    for entry in fs::read_dir(&cases).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), broken.join(entry.file_name())).unwrap();
    }
    fs::write(broken.join("bad.yaml"), "input: [a]\ntimout: 2s\n").unwrap();
    let run = classroom(&repo, &["--cases", broken.to_str().unwrap(), "src"]);
    assert_eq!(run.output.status.code(), Some(2));
    assert!(
        stderr(&run.output).contains("bad.yaml"),
        "{}",
        stderr(&run.output)
    );
    assert_eq!(run.payload()["status"], "error");

    // GITHUB_OUTPUT that cannot be written: which file, what to do, and
    // the payload in the log instead (exit 2).
    let missing = work.path().join("no-such-folder").join("output");
    let run = step(&repo, &["--cases", case_dir, "src"])
        .env("GITHUB_OUTPUT", &missing)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = stderr(&run);
    assert!(
        err.contains(&missing.display().to_string()) && err.contains("GITHUB_OUTPUT"),
        "{err}"
    );
    let line = stdout(&run)
        .lines()
        .find(|l| l.starts_with("result="))
        .map(str::to_string)
        .expect("the payload is printed instead");
    assert_eq!(decode(&line)["status"], "pass");
}

#[test]
fn the_template_repository_grades_with_its_own_workflow() {
    let template = root().join("examples/classroom");
    let text = fs::read_to_string(template.join(".github/workflows/classroom.yml")).unwrap();
    let workflow: serde_yaml::Value = serde_yaml::from_str(&text).unwrap();
    let steps = workflow["jobs"]["run-autograding-tests"]["steps"]
        .as_sequence()
        .unwrap();
    let referee = steps
        .iter()
        .find(|s| s["id"].as_str() == Some("referee"))
        .expect("a step with id referee");
    let command = referee["run"].as_str().unwrap();
    assert!(
        command.contains("referee classroom --cases tests/referee"),
        "{command}"
    );
    let reporter = steps
        .iter()
        .find(|s| s["uses"].as_str() == Some("classroom-resources/autograding-grading-reporter@v1"))
        .expect("the reporter step");
    let runners = reporter["with"]["runners"].as_str().unwrap();
    for runner in runners.split(',').map(str::trim) {
        // The reporter reads <RUNNER>_RESULTS, the runner's step output.
        let variable = format!("{}_RESULTS", runner.to_uppercase());
        let value = reporter["env"][variable.as_str()].as_str().unwrap();
        assert_eq!(value, format!("${{{{ steps.{runner}.outputs.result }}}}"));
        assert!(steps.iter().any(|s| s["id"].as_str() == Some(runner)));
    }
    let install = steps
        .iter()
        .filter_map(|s| s["run"].as_str())
        .find(|r| r.contains("x86_64-linux.tar.gz"))
        .expect("a step installing the release archive");
    assert!(install.contains("sha256sum --check"), "{install}");

    // The template as a student gets it, then with a correct program:
    // the workflow's own command.
    let work = tempfile::tempdir().unwrap();
    let repo = work.path().join("repo");
    copy_tree(&template, &repo);
    let args: Vec<&str> = command
        .split_once("referee classroom ")
        .unwrap()
        .1
        .split_whitespace()
        .collect();
    let starter = classroom(&repo, &args);
    assert_eq!(
        starter.output.status.code(),
        Some(0),
        "{}",
        stderr(&starter.output)
    );
    assert_eq!(starter.payload()["status"], "fail");
    assert_eq!(sum(&starter.payload()), 0.0);
    fs::copy(
        test_file("fixtures/connect4/correct.c"),
        repo.join("lab6.c"),
    )
    .unwrap();
    let correct = classroom(&repo, &args);
    let payload = correct.payload();
    assert_eq!(payload["status"], "pass", "{payload:#}");
    assert_eq!(sum(&payload), payload["max_score"].as_f64().unwrap());
    assert_eq!(payload["tests"].as_array().unwrap().len(), 3);
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}
