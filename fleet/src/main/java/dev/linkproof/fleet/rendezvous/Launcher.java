package dev.linkproof.fleet.rendezvous;

/** What started the fleet's agents, and so where the list of expected nodes comes from. */
public enum Launcher {
    SLURM("Slurm"),
    KUBERNETES("Kubernetes Indexed Job"),
    TORCHRUN("torchrun"),
    OPEN_MPI("Open MPI"),
    HOST_FILE("host file");

    private final String words;

    Launcher(String words) {
        this.words = words;
    }

    /** As printed: "Slurm", "Kubernetes Indexed Job". */
    public String words() {
        return words;
    }
}
