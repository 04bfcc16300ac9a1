//! The registry of games against what the docs say of it: the table of
//! games (docs/games.md) lists the registry's games, and CONTRIBUTING.md's
//! "Adding a game" lists every file that names a game (so that a new game
//! takes those files and no others).

use std::fs;
use std::path::{Path, PathBuf};

use reference::Game;

/// A document of the repository, after a newline (so that its first
/// heading is found as any other).
fn doc(file: &str) -> String {
    let text = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
    format!("\n{text}")
}

/// The text of a document's part headed `heading`, up to the next heading
/// of the same or a higher level.
fn part(readme: &str, heading: &str) -> String {
    let level = heading.chars().take_while(|c| *c == '#').count();
    let start = readme.find(&format!("\n{heading}\n")).expect(heading) + 1;
    let body = &readme[start + heading.len()..];
    let end = body
        .lines()
        .scan(0, |at, line| {
            let here = *at;
            *at += line.len() + 1;
            Some((here, line))
        })
        .find(|(_, line)| {
            let hashes = line.chars().take_while(|c| *c == '#').count();
            hashes > 0 && hashes <= level && line[hashes..].starts_with(' ')
        })
        .map_or(body.len(), |(at, _)| at);
    body[..end].to_string()
}

#[test]
fn the_readme_lists_the_registered_games_and_their_languages() {
    let table = part(&doc("docs/games.md"), "# The games");
    let listed: Vec<(String, String)> = table
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let id = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((id.to_string(), cells.get(3)?.to_string()))
        })
        .collect();
    let registered: Vec<(String, String)> = referee::games::ALL
        .iter()
        .map(|s| (s.game.id().to_string(), s.language.taken().to_string()))
        .collect();
    assert_eq!(listed, registered);
    let ids: Vec<&str> = Game::ALL.iter().map(|g| g.id()).collect();
    let registered: Vec<&str> = referee::games::ALL.iter().map(|s| s.game.id()).collect();
    assert_eq!(ids, registered, "the registry lists the reference's games");
}

/// The files "Adding a game" names, for `game`: paths relative to the
/// repository, folders ending in `/`.
fn files_for(game: Game) -> Vec<String> {
    let module = game.id().replace('-', "_");
    part(&doc("CONTRIBUTING.md"), "## Adding a game")
        .lines()
        .filter_map(|line| line.strip_prefix("- `"))
        .filter_map(|line| line.split('`').next())
        .map(|path| {
            path.replace("<module>", &module)
                .replace("<game>", game.id())
        })
        .collect()
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// A file's code, its tests and comments left out: tests name games
/// freely, and adding a game changes no test it does not add.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let end = text.find("#[cfg(test)]\nmod tests").unwrap_or(text.len());
    text[..end]
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `code` names `game`: its module, or its constant in the
/// reference crate.
fn names(code: &str, game: Game) -> bool {
    let module = game.id().replace('-', "_");
    let constant: String = game
        .id()
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect();
    let in_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    // Where `word` starts a word, and (`whole`) ends one.
    let at = |text: &str, word: &str, whole: bool| {
        text.match_indices(word).any(|(at, _)| {
            let starts = !in_word(text[..at].chars().next_back());
            let ends = !in_word(text[at + word.len()..].chars().next());
            starts && (ends || !whole)
        })
    };
    at(code, &format!("{module}::"), false)
        || code.contains(&format!("mod {module};"))
        || at(code, &format!("Game::{constant}"), true)
}

#[test]
fn no_file_but_those_the_readme_lists_names_a_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Vec::new();
    rust_files(&root.join("src"), &mut sources);
    rust_files(&root.join("reference/src"), &mut sources);
    sources.retain(|p| !p.ends_with("tests.rs") && !p.ends_with("games/toy.rs"));
    for &game in Game::ALL {
        let allowed = files_for(game);
        assert!(allowed.len() >= 6, "{allowed:?}");
        let listed = |path: &str| {
            allowed
                .iter()
                .any(|a| path == a || (a.ends_with('/') && path.starts_with(a.as_str())))
        };
        for source in &sources {
            let path = source.strip_prefix(root).unwrap().to_string_lossy();
            if names(&code(source), game) {
                assert!(
                    listed(&path),
                    "{path} names {game}, but CONTRIBUTING.md's \"Adding a game\" does not list it"
                );
            }
        }
        let suite = root.join(format!("cases/{}/suite.yaml", game.id()));
        assert!(suite.is_file(), "{}", suite.display());
        assert!(listed(&format!("cases/{}/", game.id())));
    }
}

#[test]
fn the_check_sees_a_game_named_outside_the_list() {
    // The check above would catch a match on a game in, say, grading.
    assert!(names("match g { Game::Pentago => 1 }", Game::Pentago));
    assert!(names(
        "use reference::connect4_bomb::Board;",
        Game::Connect4Bomb
    ));
    assert!(!names(
        "use reference::connect4_bomb::Board;",
        Game::Connect4
    ));
    assert!(!names("Game::Connect4Bomb", Game::Connect4));
    assert!(!files_for(Game::Pentago).contains(&"src/grading.rs".to_string()));
}
