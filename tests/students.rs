//! Labs as students write them (issue 46): a program whose uncaught
//! exception ends it is crashed, never passed for the reference's exit
//! status; input that ends, read to its end in C, Python and Java. Every program is compiled and
//! run for real (`gcc`, `python3`, `javac` and `java`).

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Writes `files` (name, text) into `dir`, made first.
fn write_all(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    for (name, text) in files {
        fs::write(dir.join(name), text).unwrap();
    }
    dir.to_path_buf()
}

/// Pins every case of `suite` from its reference, as an instructor does.
fn pin(work: &Path, suite: &Path) {
    referee_in(work, &["cases", "update", arg(suite)]);
    let done = referee_in(work, &["cases", "update", "--accept", arg(suite)]);
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}{}",
        stdout(&done),
        stderr(&done)
    );
}

/// A student's case in results.json.
fn case<'r>(results: &'r Value, id: &str, name: &str) -> &'r Value {
    student(results, id)["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("{id} has no case {name}: {results:#}"))
}

fn verdict<'r>(results: &'r Value, id: &str, name: &str) -> &'r str {
    case(results, id, name)["verdict"].as_str().unwrap()
}

/// Every student's verdict on every case, sorted: `id case verdict`.
fn verdicts(results: &Value) -> Vec<String> {
    let mut all = Vec::new();
    for s in results["submissions"].as_array().unwrap() {
        for c in s["cases"].as_array().unwrap() {
            all.push(format!(
                "{} {} {}",
                s["id"].as_str().unwrap(),
                c["name"].as_str().unwrap(),
                c["verdict"].as_str().unwrap()
            ));
        }
    }
    all.sort();
    all
}

// ---------------------------------------------------------------------
// An uncaught exception is a crash (item 6).

/// CS50P's way: too few arguments is said, and the program exits 1.
const GREET_PY: &str = "import sys\n\
if len(sys.argv) < 2:\n    sys.exit(\"Too few command-line arguments\")\n\
print(f\"Hello, {sys.argv[1]}\")\n";

#[test]
fn an_uncaught_exception_is_a_crash_and_an_exit_on_purpose_is_not() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = write_all(
        &w.join("greet"),
        &[
            ("greet.py", GREET_PY),
            (
                "suite.yaml",
                "reference: greet.py\ndefaults:\n  visibility: public\n  timeout: 20s\n",
            ),
            ("no-name.yaml", "mode: ending\nargs: []\n"),
            ("ann.yaml", "args: [Ann]\n"),
        ],
    );
    pin(w, &suite);
    let class = write_all(
        &w.join("class"),
        &[
            // Exits on purpose, in its own words: passes.
            (
                "py_exits.py",
                "import sys\n\nif len(sys.argv) != 2:\n    print(\"Usage: greet.py NAME\")\n    \
                 sys.exit(1)\nprint(\"Hello, \" + sys.argv[1])\n",
            ),
            // Never looks: IndexError, status 1, as the reference's.
            (
                "py_raises.py",
                "import sys\n\nname = sys.argv[1]\nprint(f\"Hello, {name}\")\n",
            ),
            (
                "java_exits.java",
                "public class Greet {\n    public static void main(String[] args) {\n        \
                 if (args.length != 1) {\n            System.out.println(\"Usage: java Greet \
                 NAME\");\n            System.exit(1);\n        }\n        \
                 System.out.println(\"Hello, \" + args[0]);\n    }\n}\n",
            ),
            (
                "java_raises.java",
                "public class Greet {\n    public static void main(String[] args) {\n        \
                 String name = args[0];\n        System.out.println(\"Hello, \" + name);\n    \
                 }\n}\n",
            ),
            // Prints a traceback of its own and goes on: no crash of
            // Python's, and its output is judged as any other.
            (
                "py_pretends.py",
                "import sys\n\nif len(sys.argv) < 2:\n    \
                 print('Traceback (most recent call last):')\n    \
                 print('  File \"greet.py\", line 1, in <module>')\n    \
                 print('IndexError: list index out of range')\n    print('(just joking)')\n    \
                 sys.exit(1)\nprint(f\"Hello, {sys.argv[1]}\")\n",
            ),
        ],
    );
    let results = grade_class(w, &suite, &w.join("out"), &class);
    assert_eq!(
        verdicts(&results),
        [
            "java_exits ann pass",
            "java_exits no-name pass",
            "java_raises ann pass",
            "java_raises no-name crashed",
            "py_exits ann pass",
            "py_exits no-name pass",
            "py_pretends ann pass",
            "py_pretends no-name pass",
            "py_raises ann pass",
            "py_raises no-name crashed",
        ]
    );
    for (id, said) in [
        ("py_raises", "crashed: an uncaught IndexError at line 3 of "),
        (
            "java_raises",
            "crashed: an uncaught ArrayIndexOutOfBoundsException at line 3 of ",
        ),
    ] {
        let crashed = case(&results, id, "no-name");
        assert_eq!(crashed["score"], 0.0, "{id}");
        let reason = crashed["reason"].as_str().unwrap();
        assert!(reason.contains(said), "{id}: {reason}");
        let explanation = crashed["explanation"].as_str().unwrap();
        assert!(explanation.contains(said), "{id}: {explanation}");
    }
}

#[test]
fn a_crash_where_the_reference_exits_cleanly_is_said_in_text_mode_too() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = write_all(
        &w.join("half"),
        &[
            ("half.py", "n = int(input(\"Number: \"))\nprint(n // 2)\n"),
            (
                "suite.yaml",
                "reference: half.py\ndefaults:\n  visibility: public\n  timeout: 20s\n",
            ),
            ("ten.yaml", "input: [\"10\"]\n"),
        ],
    );
    pin(w, &suite);
    let class = write_all(
        &w.join("class"),
        &[
            (
                "zero.py",
                "n = int(input(\"Number: \"))\nprint(n // (n - 10))\n",
            ),
            ("right.py", "n = int(input(\"Number? \"))\nprint(n // 2)\n"),
        ],
    );
    let results = grade_class(w, &suite, &w.join("out"), &class);
    assert_eq!(verdict(&results, "zero", "ten"), "crashed");
    assert_eq!(verdict(&results, "right", "ten"), "wrong-output");
    let reason = case(&results, "zero", "ten")["reason"].as_str().unwrap();
    assert!(
        reason.contains("an uncaught ZeroDivisionError at line 2 of"),
        "{reason}"
    );
}

// ---------------------------------------------------------------------
// Input that ends (item 4).

/// Sums the numbers typed until the end of input.
const SUM_C: &str = "#include <stdio.h>\n\n\
int main(void) {\n  int n, count = 0;\n  long total = 0;\n  \
while (scanf(\"%d\", &n) != EOF) {\n    total += n;\n    count++;\n  }\n  \
printf(\"%d numbers, total %ld\\n\", count, total);\n  return 0;\n}\n";

#[test]
fn input_that_ends_is_read_to_its_end_in_c_python_and_java() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let reference = write_all(&w.join("handout"), &[("sum.c", SUM_C)]).join("sum.c");
    let suite = w.join("sum");
    // `referee new --end-of-input`: the example case ends its input, and
    // so does every case after it.
    let made = referee_in(
        w,
        &[
            "new",
            arg(&suite),
            "--reference",
            arg(&reference),
            "--end-of-input",
            "--input",
            "3",
            "--input",
            "4",
            "--input",
            "5",
        ],
    );
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let yaml = fs::read_to_string(suite.join("suite.yaml")).unwrap();
    assert!(yaml.contains("\n  end_of_input: true\n"), "{yaml}");
    let pinned = fs::read_to_string(suite.join("example.transcript")).unwrap();
    assert!(pinned.contains("3 numbers, total 12\n"), "{pinned}");
    assert!(pinned.contains("then the end of input⟩"), "{pinned}");
    write_all(
        &suite,
        &[
            ("none.yaml", "visibility: public\ninput: []\n"),
            (
                "many.yaml",
                "visibility: public\ninput: [\"10\", \"-2\", \"7\", \"100\", \"0\"]\n",
            ),
        ],
    );
    pin(w, &suite);
    let many = fs::read_to_string(suite.join("many.transcript")).unwrap();
    assert!(many.contains("5 numbers, total 115\n"), "{many}");
    let class = write_all(
        &w.join("class"),
        &[
            (
                "c_fgets.c",
                "#include <stdio.h>\n#include <stdlib.h>\n\nint main(void) {\n  \
                 char line[100];\n  int count = 0;\n  long total = 0;\n  \
                 while (fgets(line, sizeof line, stdin) != NULL) {\n    \
                 total += atoi(line);\n    count++;\n  }\n  \
                 printf(\"%d numbers, total %ld\\n\", count, total);\n  return 0;\n}\n",
            ),
            ("c_scanf.c", SUM_C),
            (
                "py_stdin.py",
                "import sys\n\ncount = total = 0\nfor line in sys.stdin:\n    \
                 total += int(line)\n    count += 1\nprint(f\"{count} numbers, total {total}\")\n",
            ),
            (
                "py_eoferror.py",
                "count = total = 0\nwhile True:\n    try:\n        line = input()\n    \
                 except EOFError:\n        break\n    total += int(line)\n    count += 1\n\
                 print(f\"{count} numbers, total {total}\")\n",
            ),
            // input() past the end, uncaught: EOFError.
            (
                "py_no_end.py",
                "count = total = 0\nwhile True:\n    total += int(input())\n    count += 1\n",
            ),
            (
                "java_lines.java",
                "import java.util.Scanner;\n\npublic class Sum {\n    \
                 public static void main(String[] args) {\n        \
                 Scanner in = new Scanner(System.in);\n        int count = 0;\n        \
                 long total = 0;\n        while (in.hasNextLine()) {\n            \
                 total += Integer.parseInt(in.nextLine().trim());\n            count++;\n        \
                 }\n        System.out.println(count + \" numbers, total \" + total);\n    }\n}\n",
            ),
            // nextLine() past the end, uncaught: NoSuchElementException.
            (
                "java_no_end.java",
                "import java.util.Scanner;\n\npublic class Sum {\n    \
                 public static void main(String[] args) {\n        \
                 Scanner in = new Scanner(System.in);\n        long total = 0;\n        \
                 while (true) {\n            total += Integer.parseInt(in.nextLine());\n        \
                 }\n    }\n}\n",
            ),
            // Stops at the first number: the end is never read.
            (
                "py_one.py",
                "n = int(input())\nprint(f\"1 numbers, total {n}\")\n",
            ),
        ],
    );
    let results = grade_class(w, &suite, &w.join("out"), &class);
    let mut expected = Vec::new();
    for id in [
        "c_fgets",
        "c_scanf",
        "java_lines",
        "py_eoferror",
        "py_stdin",
    ] {
        for name in ["example", "many", "none"] {
            expected.push(format!("{id} {name} pass"));
        }
    }
    for name in ["example", "many", "none"] {
        expected.push(format!("java_no_end {name} crashed"));
        expected.push(format!("py_no_end {name} crashed"));
    }
    expected.extend([
        "py_one example wrong-output".to_string(),
        "py_one many wrong-output".to_string(),
        "py_one none crashed".to_string(),
    ]);
    expected.sort();
    assert_eq!(verdicts(&results), expected);
    let reason = case(&results, "py_no_end", "many")["reason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("an uncaught EOFError at line 3 of"),
        "{reason}"
    );
    let reason = case(&results, "java_no_end", "many")["reason"]
        .as_str()
        .unwrap();
    assert!(
        reason.contains("an uncaught NoSuchElementException at line 8 of"),
        "{reason}"
    );
}

