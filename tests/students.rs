//! Labs as students write them (issue 46): a program whose uncaught
//! exception ends it is crashed, never passed for the reference's exit
//! status; input that ends, read to its end in C, Python and Java; a
//! prompt wherever the student prints it. Every program is compiled and
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

// ---------------------------------------------------------------------
// A prompt wherever the student prints it (item 1).

/// MOOC.fi's Liquid Containers, the reference: two status lines, then
/// `> ` and the command.
const CONTAINERS_PY: &str = "first = second = 0\nwhile True:\n    \
print(f\"First: {first}/100\")\n    print(f\"Second: {second}/100\")\n    \
command = input(\"> \")\n    if command == \"quit\":\n        break\n    \
name, amount = command.split(\" \")\n    amount = int(amount)\n    if amount <= 0:\n        \
continue\n    if name == \"add\":\n        first = min(100, first + amount)\n    \
elif name == \"move\":\n        amount = min(amount, first)\n        first -= amount\n        \
second = min(100, second + amount)\n    elif name == \"remove\":\n        \
second = max(0, second - amount)\n";

/// A student's Java: `status` prints the two lines and the prompt as
/// that student does; `remove` is their line for the remove command.
fn containers_java(status: &str, remove: &str) -> String {
    format!(
        "import java.util.Scanner;\n\npublic class Containers {{\n    \
         public static void main(String[] args) {{\n        \
         Scanner scan = new Scanner(System.in);\n        int first = 0;\n        \
         int second = 0;\n        while (true) {{\n{status}            \
         String input = scan.nextLine();\n            if (input.equals(\"quit\")) {{\n                \
         break;\n            }}\n            String[] parts = input.split(\" \");\n            \
         int amount = Integer.valueOf(parts[1]);\n            if (amount <= 0) {{\n                \
         continue;\n            }}\n            if (parts[0].equals(\"add\")) {{\n                \
         first = Math.min(100, first + amount);\n            }} else if (parts[0].equals(\"move\")) \
         {{\n                amount = Math.min(amount, first);\n                \
         first -= amount;\n                second = Math.min(100, second + amount);\n            \
         }} else if (parts[0].equals(\"remove\")) {{\n                {remove}\n            }}\n        \
         }}\n    }}\n}}\n"
    )
}

/// The same in Python.
fn containers_python(status: &str, remove: &str) -> String {
    format!(
        "first = second = 0\nwhile True:\n{status}    command = input()\n    \
         if command == \"quit\":\n        break\n    name, amount = command.split(\" \")\n    \
         amount = int(amount)\n    if amount <= 0:\n        continue\n    if name == \"add\":\n        \
         first = min(100, first + amount)\n    elif name == \"move\":\n        \
         amount = min(amount, first)\n        first -= amount\n        \
         second = min(100, second + amount)\n    elif name == \"remove\":\n        {remove}\n"
    )
}

#[test]
fn a_prompt_at_the_top_of_the_loop_or_none_passes_and_a_wrong_number_fails_at_its_line() {
    let work = tempfile::tempdir().unwrap();
    let w = work.path();
    let suite = write_all(
        &w.join("containers"),
        &[
            ("containers.py", CONTAINERS_PY),
            (
                "suite.yaml",
                "reference: containers.py\ndefaults:\n  visibility: public\n  timeout: 20s\n  \
                 compare: [prompts]\n",
            ),
            (
                "pour.yaml",
                "input: [add 70, move 50, remove 100, add -5, quit]\n",
            ),
        ],
    );
    pin(w, &suite);
    let java_top = "            System.out.print(\"> \");\n            \
                    System.out.println(\"First: \" + first + \"/100\");\n            \
                    System.out.println(\"Second: \" + second + \"/100\");\n";
    let java_partial =
        "            System.out.println(\"First: \" + first + \"/100\");\n            \
                        System.out.print(\"Second: \" + second + \"/100\");\n";
    let python_top = "    print(\"> \", end=\"\")\n    print(f\"First: {first}/100\")\n    \
                      print(f\"Second: {second}/100\")\n";
    let python_partial =
        "    print(f\"First: {first}/100\")\n    print(f\"Second: {second}/100\", end=\"\")\n";
    let (java_right, java_wrong) = (
        "second = Math.max(0, second - amount);",
        "second = second - amount;",
    );
    let (python_right, python_wrong) = ("second = max(0, second - amount)", "second -= amount");
    let class = w.join("class");
    for (id, source) in [
        ("java_top", containers_java(java_top, java_right)),
        ("java_partial", containers_java(java_partial, java_right)),
        ("java_top_wrong", containers_java(java_top, java_wrong)),
        (
            "java_partial_wrong",
            containers_java(java_partial, java_wrong),
        ),
    ] {
        write_all(&class.join(id), &[("Containers.java", &source)]);
    }
    for (id, source) in [
        ("python_top", containers_python(python_top, python_right)),
        (
            "python_partial",
            containers_python(python_partial, python_right),
        ),
        (
            "python_top_wrong",
            containers_python(python_top, python_wrong),
        ),
        (
            "python_partial_wrong",
            containers_python(python_partial, python_wrong),
        ),
    ] {
        write_all(&class.join(id), &[("containers.py", &source)]);
    }
    let results = grade_class(w, &suite, &w.join("out"), &class);
    assert_eq!(
        verdicts(&results),
        [
            "java_partial pour pass",
            "java_partial_wrong pour wrong-output",
            "java_top pour pass",
            "java_top_wrong pour wrong-output",
            "python_partial pour pass",
            "python_partial_wrong pour wrong-output",
            "python_top pour pass",
            "python_top_wrong pour wrong-output",
        ]
    );
    // The line that differs is said, and what was taken for the prompt
    // is shown as one.
    for id in [
        "java_top_wrong",
        "java_partial_wrong",
        "python_top_wrong",
        "python_partial_wrong",
    ] {
        let explanation = case(&results, id, "pour")["explanation"].as_str().unwrap();
        assert!(
            explanation.contains("After input line 3 (`remove 100`), the reference printed `Second: 0/100`; your program printed `Second: -50/100`"),
            "{id}: {explanation}"
        );
        if id.ends_with("top_wrong") {
            assert!(explanation.contains("   ~ >"), "{id}: {explanation}");
        }
    }
    // The details keep the prompt at a line's start, as the schema says.
    let details = read_json(&w.join("out/details/java_top_wrong.json"));
    let mut prompts = Vec::new();
    all_prompts(&details, &mut prompts);
    assert!(
        prompts.iter().any(|p| p["actual"]["parts"]
            .as_array()
            .is_some_and(|parts| parts.iter().any(|part| part["from"] == 2))),
        "{details:#}"
    );
    let schema: Value =
        serde_json::from_str(&fs::read_to_string(root().join("docs/results.schema.json")).unwrap())
            .unwrap();
    let prompts_schema = serde_json::json!({"$ref": "#/$defs/prompts", "$defs": schema["$defs"]});
    let validator = jsonschema::validator_for(&prompts_schema).unwrap();
    for p in &prompts {
        assert!(validator.is_valid(p), "{p:#}");
    }
    let page = fs::read_to_string(w.join("out/feedback/java_top_wrong.html")).unwrap();
    assert!(
        page.contains("<span class=\"skip\" title=\"~ a prompt, not compared\">&gt; </span>"),
        "{page}"
    );
}

/// Every `prompts` object in `value`.
fn all_prompts(value: &Value, found: &mut Vec<Value>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                if key == "prompts" && v.is_object() {
                    found.push(v.clone());
                }
                all_prompts(v, found);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| all_prompts(v, found)),
        _ => {}
    }
}
