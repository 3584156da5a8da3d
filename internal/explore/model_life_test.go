package explore

// The end of a resource's life in the model, as the resource page says it
// ("When the file or the service is gone"): once a job is in the state, no
// plan of it fails on what lies outside its configuration (its file gone
// or unreadable, a template deleted on the service, an adopted job's
// template). The apply that needs it fails there, for that instance alone,
// and the state keeps its job; a plan that needs nothing of it plans no
// change; terraform destroy works. A new object, with no job, still fails
// at plan when its file cannot be read: then nothing at all changes.

// planFails says whether the plan of an apply of c with state fails on
// what lies outside the configuration: an instance whose file cannot be
// read, not in the state or tainted where the provider cannot tell it
// from a new object (knownByRefresh). So does terraform destroy's, while
// the state holds anything: its refresh is a plan of the whole
// configuration (Terraform's and OpenTofu's PreDestroyRefresh). (Where a
// new object names the file and template of an object in state, the
// provider takes it for that object if the refresh of the latter came
// first: the generator deletes no file of a block with an instance yet to
// create.)
func planFails(c config, state map[string]*inst) bool {
	for a, bi := range c.instances() {
		b := c.Blocks[bi]
		if st := state[a]; !readable(b) && (st == nil || st.Tainted && !knownByRefresh(st, b)) {
			return true
		}
	}
	return false
}

// knownByRefresh says whether the provider tells the plan of tainted
// instance st (block b) from a new object's, as the resource page says:
// Terraform plans a tainted object with no prior state, and the provider
// knows it by the file and template its refresh read, or, for a job
// imported before it adopted its configuration, by its template's model
// (each template here is in a model of its own). A file or template
// edited since names it no more: its plan fails as a new object's.
func knownByRefresh(st *inst, b block) bool {
	if st.Src == "" { // imported: its state names no file
		return st.Def.Template == templates[b.Template]
	}
	return st.Def.Template == templates[b.Template] && st.Src == srcOf(b)
}

// seen is what a plan can tell of the job block b defines, for an object
// in state st: with its file unreadable, the plan keeps the state's
// content_sha256, so an edit of the bytes alone is not seen (until the
// file is back).
func seen(b block, st *inst) def {
	d := defOf(b)
	if !readable(b) && st != nil {
		d.Data = st.Def.Data
	}
	return d
}

// Why an apply fails for an instance on what lies outside its
// configuration (blocked).
const (
	runs      = iota // it does not
	atUpdate         // an update: adopting an imported job, or data named elsewhere
	atReplace        // a replacement's Delete, which refuses before anything
)

// blocked says whether, and where, the apply of instance a of block b (in
// the state) fails for it on what lies outside its configuration, the
// instance keeping its job, untouched: an imported job adopts its
// configuration only once its template is the job's and can be read and
// its data read (atUpdate); a new job (a replacement, a tainted object's
// create, which resumes its job) needs the data, and the replacement's
// Delete refuses first (atReplace), as it does when a live object's
// replacement needs a template deleted on the service; a change in place that names the data
// in another place than the state's (another path, or a path for
// content) reads it, and fails (atUpdate).
func (m *model) blocked(a string, b block, replace string) int {
	st := m.state[a]
	switch {
	case st == nil:
		return runs
	case !st.Tainted && m.needsJob(a, b, replace) && m.lost(b):
		return atReplace // the replacement's new job cannot start: its Delete refuses
	case st.Adopt && !st.Tainted && !m.needsJob(a, b, replace):
		t := templates[b.Template]
		return atUpdate * btoi(st.Def.Template != t || m.deleted[t] || !readable(b))
	case readable(b):
		return runs
	case m.needsJob(a, b, replace) || st.Tainted:
		return atReplace
	}
	return atUpdate * btoi(st.Src != srcOf(b))
}

// lost says whether the create of a new job for block b fails because its
// template was deleted on the service (404): a new object is not created;
// the replacement of a live object is blocked at its Delete (blocked),
// while a tainted object's, whose create would have resumed its job but
// needs a new one, ran its Delete first, so its object is gone from the
// state.
func (m *model) lost(b block) bool { return m.deleted[templates[b.Template]] }

// lifeReady says whether nothing of the end of a resource's life is in
// effect: every file readable, no template deleted. Kills wait for it.
func (m *model) lifeReady() bool {
	if len(m.deleted) > 0 {
		return false
	}
	for _, b := range m.cfg.Blocks {
		if !readable(b) {
			return false
		}
	}
	return true
}
