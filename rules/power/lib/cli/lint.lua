-- infragate power lint: rules over migration proposals, curtailment plans,
-- scale-across proposals.
-- Compiled when the verb runs (or its help is asked): its options and run
-- are every program's lint verb (lua/verbs.lua).
return require("verbs").lint_verb("power")
