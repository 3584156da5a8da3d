package importjob

import "slices"

// Which entry of the journal a create settles, previews or drops, and what
// a destroy, a state found holding a job, and the end of an operation
// remove: the rules of the guide's section on the journal, on entries
// as facts (Journal applies them).

// Create is what a create knows when it starts: its key ("" when its
// definition is not all known: it settles nothing) and the job of the
// object it replaces (none for a new object).
type Create struct {
	Key      Key
	Replaces JobRef
	// Tainted: the object Replaces held is tainted, and Terraform plans a
	// tainted object as new: the create settles an entry of its key
	// whatever that entry's prior, as a new object's does, and its own
	// job records no prior; it still drops what a replacement of Replaces
	// drops.
	Tainted bool
}

// asNew says whether c settles and records as a new object's create.
func (c Create) asNew() bool { return c.Replaces.IsZero() || c.Tainted }

// Reason says why an entry is dropped without being settled.
type Reason int

const (
	// PriorReplaced: the job the entry's change was to replace is
	// replaced with other data.
	PriorReplaced Reason = iota + 1
	// PriorDestroyed: the job the entry's change was to replace is
	// destroyed.
	PriorDestroyed
	// MovedOn: an object that may be the entry's resource (Entry.MayBe)
	// imported other data since, and is now replaced or destroyed.
	MovedOn
)

// Drop is an entry dropped, not settled, and why.
type Drop struct {
	Entry  Entry
	Reason Reason
}

// Settlement is what a create does with the journal: the entry it settles
// (nil: it starts a job), the entries it drops, and, for a new object
// that settles nothing, the entries its new job may be the resource of
// (to add to their MayBe once the job exists).
type Settlement struct {
	Claim *Entry
	Drops []Drop
	MayBe []JobRef
}

// Settle decides what create c does with entries (oldest first). It
// settles the oldest claimable entry of its key whose change is c's: any,
// for a new object (the state never got it, or got the destroy of the job
// it replaced); the same replaced job, for a replacement; the job handed
// over, for a tainted object's. A replacement drops the entries whose
// change it makes impossible: those that were to replace the same job
// with other data, and those the replaced object may be the resource of.
func Settle(entries []Entry, c Create) Settlement {
	s := Settlement{Claim: Preview(entries, c)}
	for _, e := range entries {
		if !e.Claimable() || s.Claim != nil && e.Job == s.Claim.Job || e.Job == c.Replaces {
			continue
		}
		switch {
		case !c.Replaces.IsZero() && e.Prior == c.Replaces && e.Key != c.Key:
			s.Drops = append(s.Drops, Drop{e, PriorReplaced})
		case !c.Replaces.IsZero() && slices.Contains(e.MayBe, c.Replaces):
			s.Drops = append(s.Drops, Drop{e, MovedOn})
		case c.asNew() && s.Claim == nil && !e.HandedOver:
			s.MayBe = append(s.MayBe, e.Job)
		}
	}
	return s
}

// Destroy is what destroying the object that holds job (not a
// replacement: terraform destroy, or the resource removed from the
// configuration) drops: the entries that were to replace that job, and
// those the object may be the resource of.
func Destroy(entries []Entry, job JobRef) []Drop {
	var drops []Drop
	for _, e := range entries {
		switch {
		case !e.Claimable() || e.Job == job:
		case e.Prior == job:
			drops = append(drops, Drop{e, PriorDestroyed})
		case slices.Contains(e.MayBe, job):
			drops = append(drops, Drop{e, MovedOn})
		}
	}
	return drops
}

// Preview is the entry create c would settle (Settle's Claim), for a plan
// to say so: it drops nothing, and the apply decides again.
func Preview(entries []Entry, c Create) *Entry {
	ofKey := func(e Entry) bool { return c.Key != "" && e.Key == c.Key && e.Claimable() }
	i := slices.IndexFunc(entries, func(e Entry) bool {
		return ofKey(e) && (c.Replaces.IsZero() || e.Prior == c.Replaces || e.HandedOver)
	})
	if i < 0 && c.Tainted {
		// A tainted object's create settles as a new object's too, once
		// the replaced object's own entries (its prior, its job handed
		// over) are not there.
		i = slices.IndexFunc(entries, ofKey)
	}
	return entryAt(entries, i)
}

// entryAt is &entries[i], or nil when i < 0.
func entryAt(entries []Entry, i int) *Entry {
	if i < 0 {
		return nil
	}
	return &entries[i]
}

// Found is what a state found holding job removes from the journal (a
// refresh, a plan or an update of its object): the job's entries, whoever
// holds them. The state settles it.
func Found(entries []Entry, job JobRef) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.Job == job {
			out = append(out, e)
		}
	}
	return out
}

// AtClose is what Terraform closing the provider at the end of an
// operation removes: the jobs its creates returned as usual, which the
// CLI writes to the state it persists now. A job whose create was cut
// short stays: a second Ctrl-C closes the provider, yet the CLI exits
// without writing the state.
func AtClose(entries []Entry) []Entry {
	var out []Entry
	for _, e := range entries {
		if e.ReturnedHere {
			out = append(out, e)
		}
	}
	return out
}
