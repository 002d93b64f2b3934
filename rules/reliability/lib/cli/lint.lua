-- infragate reliability lint: rules over training-recovery-plan documents
-- (section 7).
-- Compiled when the verb runs (or its help is asked): its options and run
-- are every program's lint verb (lua/verbs.lua).
return require("verbs").lint_verb("reliability")
