package explore

// The steps a sequence runs with the previous release of the provider,
// before its upgrade step, set the scene for the provider under test:
// they are checked as any step is, but what they do otherwise than the
// model says is that release's doing, not a mismatch (CI's seed 1116 on
// Terraform 1.16: its first apply, run by the previous release, gave two
// new objects one job). The model takes what they left, as it does after
// a kill (learnKill), and the steps of the provider under test are held
// to the model from there.

// takeScene checks what a step of the previous release left (o) against
// its plan kp and expectation e (fired: its kill fired), then learns it:
// as expected if it matched, else what it left. It returns how the step
// differed from the model, to note.
func (m *model) takeScene(kp killPlan, e expect, o observed, fired bool) []string {
	var problems []string
	ids := map[string]string{}
	if fired {
		problems = checkKill(kp, e, o)
	} else {
		ids, problems = check(e, o)
	}
	if fired || len(problems) > 0 {
		m.learnKill(kp, o)
	} else {
		m.learn(ids)
	}
	return problems
}
