//! `referee new DIR --reference PROGRAM`: a suite folder for an
//! assignment of one's own, which `grade` accepts at once: a commented
//! `suite.yaml` naming the program as its reference, the program copied
//! beside it, one example case and its pinned transcript.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Failure;
use crate::cli::NewArgs;
use referee::case::{self, Suite};
use referee::oracle;

/// The example case's name.
const EXAMPLE: &str = "example";

/// Makes the suite folder and pins its example case.
pub fn run(args: &NewArgs) -> Result<ExitCode, Failure> {
    let dir = &args.dir;
    if dir.join(case::SUITE_FILE).exists() {
        return Err(format!(
            "{} already holds a suite ({}): choose another folder",
            dir.display(),
            case::SUITE_FILE
        )
        .into());
    }
    let program = program_name(&args.reference)?;
    let given = given_files(&args.files)?;
    for output in &args.outputs {
        plain_name(output, "--output")?;
    }
    // The reference runs to pin every case: only where runs come out
    // right.
    super::machine_ready()?;
    fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create it: {e}", dir.display()))?;
    let copied = dir.join(&program);
    if !same_file(&args.reference, &copied) {
        fs::copy(&args.reference, &copied).map_err(|e| {
            format!(
                "cannot copy {} into {}: {e}",
                args.reference.display(),
                dir.display()
            )
        })?;
    }
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        fs::write(&path, text).map_err(|e| format!("{}: cannot write it: {e}", path.display()))
    };
    copy_given(dir, &given)?;
    write(
        case::SUITE_FILE,
        suite_yaml(&program, dir, args.end_of_input),
    )?;
    let example = Example {
        input: &args.input,
        args: &args.args,
        files: &given,
        outputs: &args.outputs,
    };
    write(&format!("{EXAMPLE}.yaml"), example_yaml(&example))?;
    let suite = super::load_suite(dir, None)?;
    pin_example(&suite)?;
    print_next_steps(dir, &program, &args.reference);
    Ok(ExitCode::SUCCESS)
}

/// The program's file name, once it is known to be a file.
fn program_name(reference: &Path) -> Result<String, Failure> {
    if !reference.is_file() {
        return Err(format!(
            "{} is not a file: name the instructor's program (a .c, .cpp, .py or .java file or an \
             executable) with --reference",
            reference.display()
        )
        .into());
    }
    reference
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("{}: no file name", reference.display()).into())
}

/// A file `--file NAME=PATH` gives the example case.
struct Given {
    /// Its name in the program's working folder.
    name: String,
    /// Where it is now.
    path: PathBuf,
}

/// The folder of the suite the given files are copied into.
const DATA: &str = "data";

/// The `--file NAME=PATH` arguments, each a plain name and a file.
fn given_files(files: &[String]) -> Result<Vec<Given>, Failure> {
    let mut given: Vec<Given> = Vec::with_capacity(files.len());
    for file in files {
        let Some((name, path)) = file.split_once('=') else {
            return Err(format!(
                "--file {file}: give the name the program opens and the file, as \
                 --file before.csv=data/scores.csv"
            )
            .into());
        };
        plain_name(name, "--file")?;
        let path = PathBuf::from(path);
        if !path.is_file() {
            return Err(format!("--file {file}: {} is not a file", path.display()).into());
        }
        if given.iter().any(|g| g.name == name) {
            return Err(format!("--file {name} is given twice: give each name once").into());
        }
        given.push(Given {
            name: name.to_string(),
            path,
        });
    }
    Ok(given)
}

/// Refuses a name that is not a plain file name (a case's `files` and
/// `outputs` name files in the working folder itself).
fn plain_name(name: &str, option: &str) -> Result<(), Failure> {
    if !case::is_plain_name(name) {
        return Err(format!(
            "{option} {name:?}: give a plain file name, without a folder (the program finds it in \
             its working folder)"
        )
        .into());
    }
    Ok(())
}

/// Copies each given file into the suite's `data/` folder.
fn copy_given(dir: &Path, given: &[Given]) -> Result<(), Failure> {
    if given.is_empty() {
        return Ok(());
    }
    let data = dir.join(DATA);
    fs::create_dir_all(&data).map_err(|e| format!("{}: cannot create it: {e}", data.display()))?;
    for file in given {
        let to = data.join(&file.name);
        if !same_file(&file.path, &to) {
            fs::copy(&file.path, &to).map_err(|e| {
                format!(
                    "cannot copy {} to {}: {e}",
                    file.path.display(),
                    to.display()
                )
            })?;
        }
    }
    Ok(())
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Runs the reference on the example and pins what it printed: the
/// reference builds and runs here, or `new` says why.
fn pin_example(suite: &Suite) -> Result<(), Failure> {
    let case = suite
        .cases
        .iter()
        .find(|c| c.name == EXAMPLE)
        .ok_or("the example case does not load; this is a bug in referee")?;
    let pinned = oracle::pin_text(suite, case)?;
    case::pin::write(case, &pinned)
        .map_err(|e| format!("{}: cannot write it: {e}", case.pin_file().display()))?;
    Ok(())
}

fn print_next_steps(dir: &Path, program: &str, reference: &Path) {
    let dir = dir.display();
    let student = student_file(reference);
    println!("Made the suite {dir}, with {program} as its reference and one example case, pinned.");
    println!("Next:");
    println!("  edit {dir}/{EXAMPLE}.yaml and add cases beside it (one .yaml file each);");
    println!("  referee cases update {dir}            # shows what the reference prints for each");
    println!("  referee cases update --accept {dir}   # pins it");
    println!("  referee check --cases {dir} {student}   # one program on the public cases");
    println!("  referee grade --cases {dir} --out results submissions/");
}

/// A student's program in the reference's language, for the hints:
/// `student.py` for a Python reference.
fn student_file(reference: &Path) -> &'static str {
    match reference.extension().and_then(|e| e.to_str()) {
        Some("c") => "student.c",
        Some("cpp" | "cc" | "cxx") => "student.cpp",
        Some("py") => "student.py",
        Some("java") => "Student.java",
        _ => "student",
    }
}

/// What an instructor calls their own program, never what students
/// call theirs: a reference so named leaves the suite named after its
/// folder.
const GENERIC_NAMES: [&str; 6] = ["solution", "reference", "sol", "answer", "model", "main"];

/// The suite's `name:` lines: the reference's file name without its
/// extension, as students name their program (`scourgify.py` gives
/// `name: scourgify`, and pins show `python3 scourgify.py`), unless it is
/// an instructor's generic name (`solution.c`): then the folder's name,
/// said in a comment.
fn name_lines(program: &str) -> String {
    let stem = Path::new(program)
        .file_stem()
        .map_or_else(|| program.to_string(), |s| s.to_string_lossy().into_owned());
    let what = "# How students run it: pins and explanations show `python3 NAME.py`,\n\
                # `./NAME`, `java NAME` (and what reports call the suite).\n";
    if GENERIC_NAMES.contains(&stem.to_lowercase().as_str()) {
        format!("{what}# Left out, it is this folder's name.\n# name: lab2\n")
    } else {
        format!("{what}name: {stem}\n")
    }
}

/// The suite's settings, each commented; with `ends`, every case's
/// input ends after its last line.
fn suite_yaml(program: &str, dir: &Path, ends: bool) -> String {
    let end_of_input = if ends {
        "  # The input ends after a case's last line, as Ctrl-D ends it on a\n  \
         # terminal: the program's next read gets the end of its input (a loop\n  \
         # on scanf(...) != EOF, fgets, `for line in sys.stdin`, hasNextLine()).\n  \
         end_of_input: true\n"
    } else {
        "  # A program still reading after a case's last line is stopped there,\n  \
         # waiting. For a program that reads to the end of its input, end it\n  \
         # there as Ctrl-D does (or make the suite with --end-of-input):\n  \
         # end_of_input: true\n"
    };
    let name = name_lines(program);
    let title = std::path::absolute(dir)
        .ok()
        .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "my assignment".into());
    format!(
        r#"# A suite of referee's: its cases, and the program they are judged
# against. Expected output is never typed: it is what the reference prints
# for each case's input, pinned beside the case (<case>.transcript) so
# that any change to it is a reviewed difference. After changing the
# reference or a case:
#   referee cases update DIR            (shows what changed)
#   referee cases update --accept DIR   (pins it)
# A suite that ships its pins grades without the reference: keep the
# solution to yourself, if you like, and hand the folder to your TAs.

# The instructor's program: a C, C++ or Python source, or an executable,
# built with the flags below and run as students' programs are.
reference: {program}
{name}title: {title}

# Files every run finds in its working folder, and the compiler beside
# the source (a header such as cs50.h, a data file the program opens).
# support: [cs50.h, words.txt]

# The course's own library: C or C++ sources compiled with the suite's
# flags and linked into every C and C++ program (its header is a
# support file).
# link: [cs50.c]

# A program that prints one case's input lines for the seed given as its
# one argument, for `referee explore`.
# generator: gen.py

# What every case has unless it says otherwise.
defaults:
  points: 1
  # public cases are the ones students run with `referee check`.
  visibility: hidden
  timeout: 5s
  # What does not count when outputs are compared: exact, or a list of
  # trailing-whitespace, whitespace-runs, all-whitespace (white space
  # anywhere, as diff -w), blank-lines, case, prompts (a
  # program's prompts, in any words), and {{numbers: {{absolute: 0.01}}}}
  # (numbers within a tolerance). Students word their prompts their own
  # way, so prompts are not compared unless you take them out of here.
  compare: [trailing-whitespace, prompts]
  # text: the output and how the run ends earn the points together;
  # ending: only how the run ends (it asks again, or stops, as the
  # reference does), for cases about refusing bad input in any words;
  # files: only the files of `outputs` and how the run ends.
  mode: text
{end_of_input}  # The program's arguments, files put in its working folder first
  # (each a name there: a file of this folder), and files it must leave
  # there, each compared with the reference's.
  # args: [before.csv, after.csv]
  # files: {{before.csv: data/before.csv}}
  # outputs: [after.csv]

# Compiler flags, for students' programs and a compiled reference.
compile:
  c: [-Wall]
  cpp: [-Wall]
"#
    )
}

/// What the example case gives the program and asks of it.
struct Example<'a> {
    input: &'a [String],
    args: &'a [String],
    files: &'a [Given],
    outputs: &'a [String],
}

/// The example case: the lines it types, its arguments, the files it
/// gives and the files it asks for.
fn example_yaml(example: &Example<'_>) -> String {
    let list = |items: &[String]| {
        let quoted: Vec<String> = items.iter().map(|a| quoted(a)).collect();
        format!("[{}]", quoted.join(", "))
    };
    let args = if example.args.is_empty() {
        String::new()
    } else {
        format!(
            "# The program's command-line arguments, as written (no shell).\nargs: {}\n",
            list(example.args)
        )
    };
    let files = if example.files.is_empty() {
        String::new()
    } else {
        let lines: Vec<String> = example
            .files
            .iter()
            .map(|f| {
                format!(
                    "  {}: {}",
                    quoted(&f.name),
                    quoted(&format!("{DATA}/{}", f.name))
                )
            })
            .collect();
        format!(
            "# Files put in the program's working folder first: its name there, and\n\
             # the file of this folder it is a copy of.\nfiles:\n{}\n",
            lines.join("\n")
        )
    };
    let outputs = if example.outputs.is_empty() {
        String::new()
    } else {
        format!(
            "# Files the program must leave there, each compared with the reference's.\n\
             outputs: {}\n",
            list(example.outputs)
        )
    };
    let lines: Vec<String> = example
        .input
        .iter()
        .map(|l| format!("  - {}", quoted(l)))
        .collect();
    let input = if lines.is_empty() {
        "input: []   # the lines typed, one each time the program waits to read".to_string()
    } else {
        format!(
            "# The lines typed, one each time the program waits to read.\ninput:\n{}",
            lines.join("\n")
        )
    };
    format!(
        "# An example case: what it types, and what it is worth. Its expected\n\
         # output is the reference's, pinned in {EXAMPLE}.transcript.\n\
         description: An example run.\n\
         visibility: public\n\
         points: 1\n\
         {args}{files}{outputs}{input}\n"
    )
}

/// A YAML string for any line: always quoted, so that `007` and `yes`
/// stay what was typed.
fn quoted(line: &str) -> String {
    serde_json::to_string(line).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(input: &[String], args: &[String]) -> String {
        example_yaml(&Example {
            input,
            args,
            files: &[],
            outputs: &[],
        })
    }

    #[test]
    fn typed_lines_are_quoted_whatever_they_hold() {
        let text = typed(&["007".into(), "yes".into(), "say \"hi\"".into()], &[]);
        assert!(
            text.contains("  - \"007\"\n  - \"yes\"\n  - \"say \\\"hi\\\"\""),
            "{text}"
        );
        assert!(typed(&[], &[]).contains("input: []"));
        let with = typed(&[], &["13".into(), "a b".into()]);
        assert!(with.contains("args: [\"13\", \"a b\"]\n"), "{with}");
        assert!(!typed(&[], &[]).contains("args"));
    }
}
