-- infragate network lint: rules over capacity proposals, fabric plans and
-- scenarios.
-- Compiled when the verb runs (or its help is asked): its options and run
-- are every program's lint verb (lua/verbs.lua).
return require("verbs").lint_verb("network")
