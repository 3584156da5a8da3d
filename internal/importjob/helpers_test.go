package importjob

// testService is the address of the service the tests' jobs run on.
const testService = "https://hub.example"

// ref names job id on the tests' service ("": no job).
func ref(id string) JobRef {
	if id == "" {
		return JobRef{}
	}
	return NewJobRef(testService, id)
}

// refs names each job id on the tests' service.
func refs(ids ...string) []JobRef {
	out := make([]JobRef, len(ids))
	for i, id := range ids {
		out[i] = ref(id)
	}
	return out
}

// keyOf is i's key on the tests' service.
func keyOf(i Import) Key { return i.Definition().KeyOn(testService) }

// killed is an entry a killed apply left: nothing holds it any more.
func killed(job string, key Key, prior string) Entry {
	return Entry{Job: ref(job), Key: key, Prior: ref(prior)}
}
