//! Reports, one module per format behind one trait (the shape of
//! hyperfine's `export/`): each turns a class's results into the files it
//! writes in the output folder.
//!
//! | format | files | for |
//! |---|---|---|
//! | [`json`] | `results.json`: every result, the documented schema | scripts |
//! | [`csv`] | `gradebook.csv`: a row per student, points per case; `moodle-grades.csv`: Moodle's grading worksheet | the gradebook, Moodle |
//! | [`canvas`] | `canvas-grades.csv`: Canvas's Gradebook import | Canvas |
//! | [`blackboard`] | `blackboard-grades.csv`: Blackboard Learn's Grade Center upload | Blackboard |
//! | [`junit`] | `junit.xml`: a test suite per student | CI dashboards |
//! | [`markdown`] | `feedback/<id>.md`: a student's feedback | students |
//! | [`html`] | `feedback/<id>.html`, `feedback/index.html`: the same as pages, transcripts side by side; the class for TAs | students, TAs |
//! | [`gradescope`] | Gradescope's `results.json` for one submission (written by `referee gradescope`, not by `grade`) | Gradescope |
//! | [`classroom`] | GitHub Classroom's reporter payload, step summary and annotations for one submission (written by `referee classroom`, not by `grade`) | GitHub Classroom |
//!
//! What a student may see of a case (never a hidden case's details) is
//! decided once, in [`view`].

pub mod blackboard;
pub mod canvas;
pub mod classroom;
pub mod csv;
mod exporter;
pub mod folder;
pub mod gradescope;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod similarity;
pub mod summary;
pub mod view;

pub(crate) use exporter::file_if;
pub use exporter::{Exporter, Sink};

/// Every format `grade` and `merge` write.
pub fn all() -> Vec<Box<dyn Exporter>> {
    vec![
        Box::<json::Json>::default(),
        Box::new(csv::Csv),
        Box::new(csv::Moodle),
        Box::new(canvas::Canvas),
        Box::new(blackboard::Blackboard),
        Box::<junit::Junit>::default(),
        Box::new(markdown::Markdown),
        Box::<html::Html>::default(),
    ]
}
