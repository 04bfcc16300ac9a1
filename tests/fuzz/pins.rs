//! Pinned transcripts: any bytes (and the shipped pins mutated) read
//! with any input never panic, and a run pinned reads back as itself.

use proptest::collection::vec;
use proptest::prelude::*;
use referee::case::pin;
use referee::expected::ReferenceRun;
use referee::transcript;

use crate::corpus::SEEDS;
use crate::mutate::{self, Step};
use crate::{config, timed};

/// Input lines as a case file can hold them: no newline.
fn inputs() -> impl Strategy<Value = Vec<String>> {
    vec(mutate::input_line(), 0..8)
}

/// What `parse` gives back is of the case's input: the lines it says
/// were typed are the case's first ones.
fn check_parsed(text: &[u8], inputs: &[String], ends: bool) {
    let parsed = timed("parsing a pin", || pin::parse(text, inputs, ends));
    if let Ok(run) = parsed {
        let typed: Vec<&str> = run.transcript.inputs().collect();
        assert!(typed.len() <= inputs.len());
        assert!(typed.iter().zip(inputs).all(|(a, b)| a == b));
        if run.waited_at_end {
            assert_eq!(
                typed.len(),
                inputs.len(),
                "a pin waits only after every line"
            );
        }
    }
}

/// A pin's text mutated: its bytes, its lines and its numbers.
fn mutated_pin(pin: &[u8], mutations: &[mutate::Mutation]) -> Vec<u8> {
    match &mutate::mutated(&[Step::Out(pin.to_vec())], mutations)[..] {
        [Step::Out(bytes)] => bytes.clone(),
        steps => steps
            .iter()
            .flat_map(|s| match s {
                Step::Out(bytes) => bytes.clone(),
                Step::In(line) => line.clone().into_bytes(),
            })
            .collect(),
    }
}

proptest! {
    #![proptest_config(config(400))]

    #[test]
    fn any_bytes_parse_or_are_refused(
        text in mutate::output(24),
        inputs in inputs(),
        ends in any::<bool>(),
    ) {
        check_parsed(&text, &inputs, ends);
    }

    #[test]
    fn mutated_pins_parse_or_are_refused(
        seed in 0..SEEDS.len(),
        mutations in vec(mutate::mutation(), 1..5),
        other_input in proptest::option::of(inputs()),
    ) {
        let seed = &SEEDS[seed];
        let text = mutated_pin(&seed.pin, &mutations);
        let inputs = other_input.unwrap_or_else(|| seed.case.input.clone());
        check_parsed(&text, &inputs, seed.case.end_of_input);
        check_parsed(&text, &inputs, !seed.case.end_of_input);
    }

    #[test]
    fn a_pinned_run_reads_back_as_itself(
        steps in mutate::steps(24),
        more in inputs(),
        waited in any::<bool>(),
        status in prop_oneof![3 => Just(0), 1 => any::<i32>()],
        ends in any::<bool>(),
    ) {
        let run = ReferenceRun {
            transcript: mutate::transcript(&steps),
            waited_at_end: waited,
            status,
            files: Vec::new(),
        };
        // The case types what the run read, and perhaps more it never
        // read (not when it waited for more).
        let mut inputs: Vec<String> = run.transcript.inputs().map(str::to_string).collect();
        if !waited {
            inputs.extend(more);
        }
        let pinned = timed("pinning", || pin::pinned(&run, &inputs, ends));
        match pinned {
            Ok(text) => {
                prop_assert_eq!(pin::render(&run, ends), text.clone());
                let back = pin::parse(&text, &inputs, ends);
                prop_assert_eq!(back, Ok(run));
            }
            Err(_) => {
                // Refused only when the output could end like a mark.
                let output = run.transcript.output();
                prop_assert!(
                    output.windows(3).any(|w| w == "⟩".as_bytes())
                        || run.transcript.inputs().any(|i| i.contains('⟩')),
                    "an ordinary run refused: {:?}",
                    String::from_utf8_lossy(&pin::render(&run, ends))
                );
            }
        }
    }

    #[test]
    fn a_shipped_run_mutated_reads_back_as_itself(
        seed in 0..SEEDS.len(),
        mutations in vec(mutate::mutation(), 1..5),
    ) {
        let seed = &SEEDS[seed];
        let steps = mutate::mutated(&mutate::steps_of(&seed.run.transcript), &mutations);
        let run = ReferenceRun {
            transcript: mutate::transcript(&steps),
            waited_at_end: seed.run.waited_at_end,
            status: seed.run.status,
            files: Vec::new(),
        };
        let inputs: Vec<String> = run.transcript.inputs().map(str::to_string).collect();
        let ends = seed.case.end_of_input;
        if let Ok(text) = pin::pinned(&run, &inputs, ends) {
            let back = pin::parse(&text, &inputs, ends).expect("a pin reads back");
            prop_assert_eq!(
                transcript::lines(&back.transcript, back.waited_at_end),
                transcript::lines(&run.transcript, run.waited_at_end)
            );
            prop_assert_eq!(back, run);
        }
    }
}
