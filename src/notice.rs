//! Notes to the user that matter once per run of `referee`, not once per
//! case ("this system cannot tell when a program waits for input").

use std::collections::HashSet;
use std::sync::Mutex;

static SAID: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// Prints `text` on stderr as a note, the first time `key` is seen.
pub fn once(key: &'static str, text: &str) {
    let mut said = SAID.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if said.get_or_insert_with(HashSet::new).insert(key) {
        eprintln!("referee: note: {text}");
    }
}
