package dev.linkproof.fleet.campaign;

/**
 * What a campaign reports as it goes, one event at a time, in order, from the thread that drives
 * it. The engine's adapter prints each event's line through its progress printer; a harness
 * without JUnit can do anything else with them.
 */
@FunctionalInterface
public interface CampaignListener {
    CampaignListener SILENT = e -> {};

    void on(CampaignEvent event);
}
