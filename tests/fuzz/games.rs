//! The game readers: any output, and the shipped games' transcripts
//! mutated, read by each game's reader and compared.

use proptest::prelude::*;
use proptest::sample::select;
use referee::case::MoveNumbers;
use referee::game::{self, Reading};
use referee::transcript::{self, TermLine, Transcript};
use referee::Game;

use crate::corpus::SEEDS;
use crate::mutate::{self, Flood, Step, FLOODS};
use crate::{assert_linear, config, raw_control, timed, FLOOD};

fn games() -> impl Strategy<Value = Game> {
    select(Game::ALL)
}

fn numbers() -> impl Strategy<Value = MoveNumbers> {
    select(
        &[
            MoveNumbers::Optional,
            MoveNumbers::Required,
            MoveNumbers::Ignored,
        ][..],
    )
}

/// `lines` read by `game`'s reader, in bounded time, checked: one class
/// per line, one turn per input line and the one before the first.
fn read(game: Game, lines: &[TermLine]) -> Reading {
    let rules = referee::games::rules(game);
    let reading = timed("reading", || game::read(rules, lines));
    assert_eq!(reading.lines.len(), lines.len(), "one class per line");
    let typed: Vec<&str> = lines.iter().filter_map(|l| l.input.as_deref()).collect();
    assert_eq!(reading.turns.len(), typed.len() + 1, "a turn per input");
    for (turn, input) in reading.turns.iter().skip(1).zip(&typed) {
        assert_eq!(turn.input.as_deref(), Some(*input));
    }
    assert!(reading.turns[0].input.is_none());
    let turns: Vec<usize> = reading.lines.iter().map(|c| c.turn).collect();
    assert!(turns.windows(2).all(|w| w[0] <= w[1]), "turns in order");
    assert!(turns.iter().all(|&t| t < reading.turns.len()));
    reading
}

/// The longest a difference's sentence may be: it names the input line
/// (at most 12 characters here, escaped) and the game's words, never the
/// program's output.
const SENTENCE_ROOM: usize = 600;

/// Two readings compared as the judge compares them: in bounded time, a
/// sentence that is short and safe, a turn that both readings can name.
fn compare(game: Game, want: &Reading, got: &Reading, numbers: MoveNumbers) {
    let rules = referee::games::rules(game);
    let found = timed("comparing", || game::compare(rules, want, got, numbers));
    if let Some(difference) = found {
        let sentence = &difference.sentence;
        assert!(
            sentence.chars().count() <= SENTENCE_ROOM,
            "a sentence of {} characters: {}…",
            sentence.chars().count(),
            sentence.chars().take(300).collect::<String>()
        );
        assert_eq!(raw_control(sentence), None, "{sentence:?}");
        assert!(difference.turn < want.turns.len().max(got.turns.len()));
        if let Some((ours, theirs)) = &difference.boards {
            let shown = referee::game::board::side_by_side(ours, theirs, rules.pieces());
            assert_eq!(raw_control(&shown), None);
        }
    }
    // Compared with itself, a reading has no difference.
    assert_eq!(game::compare(rules, got, got, numbers), None);
}

fn lines(steps: &[Step], waiting: bool) -> Vec<TermLine> {
    transcript::lines(&mutate::transcript(steps), waiting)
}

proptest! {
    #![proptest_config(config(300))]

    #[test]
    fn any_output_is_read_by_every_reader(
        game in games(),
        steps in mutate::steps(40),
        waiting in any::<bool>(),
        numbers in numbers(),
    ) {
        let lines = lines(&steps, waiting);
        let got = read(game, &lines);
        let reference = SEEDS.iter().find(|s| s.game() == Some(game)).expect("a seed per game");
        let want = read(game, &transcript::lines(&reference.run.transcript, reference.run.waited_at_end));
        compare(game, &want, &got, numbers);
        compare(game, &got, &want, numbers);
    }

    #[test]
    fn mutated_games_are_read_and_compared_with_the_reference(
        seed in 0..SEEDS.len(),
        game in games(),
        mutations in proptest::collection::vec(mutate::mutation(), 1..6),
        waiting in any::<bool>(),
        numbers in numbers(),
    ) {
        let seed = &SEEDS[seed];
        // A seed's own reader most of the time; any reader on any
        // transcript too (a student can print another game).
        let game = seed.game().filter(|_| !waiting).unwrap_or(game);
        let run = &seed.run;
        let want = read(game, &transcript::lines(&run.transcript, run.waited_at_end));
        let steps = mutate::mutated(&mutate::steps_of(&run.transcript), &mutations);
        let got = read(game, &lines(&steps, waiting));
        compare(game, &want, &got, numbers);
    }
}

/// A program's own reading compared with its mutation, the other way
/// round: the mutation is the reference.
#[test]
fn the_reference_side_can_be_anything_too() {
    for seed in SEEDS.iter().filter(|s| s.game().is_some()).take(12) {
        let game = seed.game().expect("a game's seed");
        let steps = mutate::steps_of(&seed.run.transcript);
        let got = read(game, &lines(&steps, false));
        for flood in [
            Flood::Refusals,
            Flood::BoardRows,
            Flood::PentagoRows,
            Flood::Garbage,
        ] {
            let mut flooded = steps.clone();
            flooded.insert(flooded.len() / 2, Step::Out(flood.bytes(FLOOD)));
            let want = read(game, &lines(&flooded, false));
            compare(game, &want, &got, MoveNumbers::Optional);
            compare(game, &got, &want, MoveNumbers::Optional);
        }
    }
}

/// What the hostile kits print is read and compared in linear time.
#[test]
fn floods_are_read_in_linear_time() {
    for game in Game::ALL.iter().copied() {
        let reference = SEEDS
            .iter()
            .find(|s| s.game() == Some(game))
            .expect("a seed per game");
        let want = read(
            game,
            &transcript::lines(&reference.run.transcript, reference.run.waited_at_end),
        );
        for &flood in FLOODS {
            let make = |size: usize| {
                let mut t = Transcript::new();
                t.push_output(b"Column? ");
                t.push_input("3");
                t.push_output(&flood.bytes(size));
                transcript::lines(&t, false)
            };
            let rules = referee::games::rules(game);
            assert_linear(
                &format!("{game} reading {flood:?}"),
                FLOOD / 8,
                make,
                |lines| {
                    let got = game::read(rules, lines);
                    let _ = game::compare(rules, &want, &got, MoveNumbers::Optional);
                },
            );
            let got = read(game, &make(FLOOD));
            compare(game, &want, &got, MoveNumbers::Optional);
        }
    }
}
