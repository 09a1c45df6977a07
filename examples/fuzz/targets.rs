//! The targets: what an input is fed to, how often each is picked, and the words worth
//! inserting into its inputs.
//!
//! Apart because every part of the harness names them: the corpus files its seeds by
//! target, the mutations use their dictionaries, the pipelines and the summary go by
//! them, and a saved finding's name starts with one.

/// What an input is fed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Target {
    /// A level file: XSB, numeric, digits → analysis → bounded solve → replay.
    Level,
    /// A solver's answer to a fixed formula → `decode` → replay.
    Answer,
    /// A LURD solution of a fixed level → replay in both conventions.
    Solution,
    /// A Binairo file → the CSP engines and the SAT route.
    Binairo,
    /// A DIMACS formula and an LRAT proof (`%%` between them) → the checker.
    Lrat,
}

/// Every target, in the order of the summary.
pub(crate) const TARGETS: [Target; 5] = [
    Target::Level,
    Target::Answer,
    Target::Solution,
    Target::Binairo,
    Target::Lrat,
];

impl Target {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Target::Level => "level",
            Target::Answer => "answer",
            Target::Solution => "solution",
            Target::Binairo => "binairo",
            Target::Lrat => "lrat",
        }
    }

    pub(crate) fn index(self) -> usize {
        TARGETS.iter().position(|&t| t == self).expect("listed")
    }

    pub(crate) fn from_name(name: &str) -> Option<Target> {
        TARGETS.iter().copied().find(|t| t.name() == name)
    }

    /// How often an input is made for this target, in percent.
    pub(crate) fn weight(self) -> u64 {
        match self {
            Target::Level => 50,
            Target::Answer => 13,
            Target::Solution => 13,
            Target::Binairo => 12,
            Target::Lrat => 12,
        }
    }

    /// Words worth inserting into this target's inputs.
    pub(crate) fn dictionary(self) -> &'static [&'static str] {
        match self {
            Target::Level => &[
                "#",
                "@",
                "+",
                "$",
                ".",
                "*",
                "~",
                "=",
                "&",
                "|",
                "-",
                "_",
                " ",
                "\n",
                "\r\n",
                "; 1\n",
                "Title: x\n",
                "Author: y\n",
                "99",
                "10",
                "15",
                "17",
                "20",
                "25",
                "27",
                "30",
                "35",
                "37",
                "42",
                "(",
                ")",
                "[",
                "]",
                ",",
                "((",
                "))",
                "0",
                "1",
                "\t",
                "10000#",
                "9999 ",
                "3@",
                "2$",
                "4.",
                "#@$.#",
                "99,17,15,20,99",
            ],
            Target::Answer => &[
                "s SATISFIABLE\n",
                "s UNSATISFIABLE\n",
                "s UNKNOWN\n",
                "s SAT\n",
                "v ",
                " 0\n",
                "v 0\n",
                "-",
                "SAT\n",
                "UNSAT\n",
                "INDET\n",
                "c x\n",
                "0",
                " ",
                "\n",
                "1",
                "-1",
            ],
            Target::Solution => &[
                "l", "u", "r", "d", "L", "U", "R", "D", " ", "\n", "3l", "10000U", "x", "lurd",
                "LURD", "rR", "dlU",
            ],
            Target::Binairo => &[
                "0", "1", ".", "-", "_", " ", "\n", "; t\n", "\r\n", "01", "10", "..", "0011",
            ],
            Target::Lrat => &[
                "\n%%\n",
                " d ",
                " 0",
                "0\n",
                " 0 ",
                "-",
                "p cnf 2 4\n",
                "p cnf ",
                "c x\n",
                "1 ",
                "2 ",
                "5 ",
                "-1 ",
                "-2 ",
            ],
        }
    }
}
