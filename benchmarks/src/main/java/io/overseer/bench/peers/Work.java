package io.overseer.bench.peers;

/** What each peer task does: nothing, or one real HTTP call to the remote-service simulator. */
interface Work {

    /** Performs the work of one task; throws if it did not succeed (the run is then void). */
    void perform(String taskId) throws Exception;

    String name();

    Work NO_OP = new Work() {
        @Override
        public void perform(String taskId) {
            // Deliberately nothing: the figure is the peer's own per-task cost.
        }

        @Override
        public String name() {
            return "noop";
        }
    };
}
