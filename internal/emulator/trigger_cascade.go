// Trigger instance deletion (with its tombstone), shared by the trigger
// instance routes and connected account deletion.

package emulator

// deleteTriggerChanges deletes a trigger instance and leaves its tombstone; callers hold st.mu.
func (s *Server) deleteTriggerChanges(t *TriggerInstance) []change {
	return []change{del(bucketTriggers, t.ID), put(bucketDeletedTriggers, t.ID, &deletedTrigger{Project: t.Project, DeletedAt: s.st.stamp()})}
}
