-- infragate scheduling lint: rules over capacity requests and scheduler
-- policies.
-- Compiled when the verb runs (or its help is asked): its options and run
-- are every program's lint verb (lua/verbs.lua).
return require("verbs").lint_verb("scheduling")
