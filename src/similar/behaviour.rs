//! Behaviour as evidence: the cases on which two programs failed the
//! same way. Two programs written apart fail apart; two that print the
//! same wrong output where the reference printed something else, on a
//! case few others failed so, very likely share the code that does it.
//! Read from what `grade` kept of each student in the same output folder
//! (`details/<id>.json`): the program's transcript of each failed case.

use std::collections::HashMap;
use std::path::Path;

use super::report::SameFailure;
use super::tokens::hash;
use crate::batch::detail_file;
use crate::results::SubmissionResult;
use crate::untrusted;

/// The most of a details file that is read: referee bounds what it keeps
/// of a student far below this.
const DETAILS_LIMIT: u64 = 64 << 20;

/// One failed case: its name, a hash of what the program printed, and
/// the verdict.
type Failed = (String, u64, String);

/// The class's failures, by student and by how many share each.
#[derive(Debug, Default)]
pub struct Failures {
    by_student: HashMap<String, Vec<Failed>>,
    holders: HashMap<(String, u64), usize>,
}

impl Failures {
    /// The failures kept in `out` for the students `ids`; `None` when
    /// none of them was graded there.
    pub fn read(out: &Path, ids: &[String]) -> Option<Failures> {
        let mut failures = Failures::default();
        for id in ids {
            let Ok(bytes) = untrusted::read(&detail_file(out, id), DETAILS_LIMIT) else {
                continue;
            };
            let Ok(result) = serde_json::from_slice::<SubmissionResult>(&bytes) else {
                continue;
            };
            let failed = failed(&result);
            for (case, key, _) in &failed {
                *failures.holders.entry((case.clone(), *key)).or_default() += 1;
            }
            failures.by_student.insert(id.clone(), failed);
        }
        (!failures.by_student.is_empty()).then_some(failures)
    }

    /// The cases `a` and `b` both failed printing the same thing, rarest
    /// first.
    pub fn same(&self, a: &str, b: &str) -> Vec<SameFailure> {
        let (Some(fa), Some(fb)) = (self.by_student.get(a), self.by_student.get(b)) else {
            return Vec::new();
        };
        let mut same: Vec<SameFailure> = fa
            .iter()
            .filter(|f| fb.contains(f))
            .map(|(case, key, verdict)| {
                let shared_by = self
                    .holders
                    .get(&(case.clone(), *key))
                    .copied()
                    .unwrap_or(2);
                SameFailure {
                    case: case.clone(),
                    verdict: verdict.clone(),
                    shared_by,
                    weight: (2000.0 / shared_by.max(2) as f64).round() / 1000.0,
                }
            })
            .collect();
        same.sort_by(|x, y| y.weight.total_cmp(&x.weight).then(x.case.cmp(&y.case)));
        same
    }
}

/// The cases `result` failed where it printed something other than the
/// reference did.
fn failed(result: &SubmissionResult) -> Vec<Failed> {
    result
        .cases
        .iter()
        .filter(|c| c.verdict != crate::verdict::Verdict::Pass)
        .filter_map(|c| {
            let actual = c.actual.as_deref()?;
            if Some(actual) == c.expected.as_deref() {
                return None;
            }
            let verdict = serde_json::to_value(c.verdict)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default();
            Some((c.name.clone(), hash(actual), verdict))
        })
        .collect()
}
