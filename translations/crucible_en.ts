<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ArchiveGridModel</name>
    <message>
        <source>empty cell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>elite #%1, fitness %2
%3 = %4, %5 = %6
best of %7 archive cell(s)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ArchiveMapView</name>
    <message>
        <source>Columns:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The archive of this run is empty: no candidate has been placed in a cell yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 archive cells, %2 of %3 shown cells filled</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CandidatesModel</name>
    <message>
        <source>Candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposer / mutation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median µs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Registers</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Swap</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Right:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>identical source</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>change %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No candidate selected: select one in any view, or pick two candidates above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;no candidate on this side&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;#%1 not found&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Candidate #%1 has no parent (it is a %2): pick a candidate on the left to compare against.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EngineController</name>
    <message>
        <source>A run is already in progress.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FilteredTable</name>
    <message>
        <source>Filter…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KnowledgeModel</name>
    <message>
        <source>Scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Claim</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Effect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Observations</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KnowledgeView</name>
    <message>
        <source>Search claims, decisions and scopes (full text)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence (click to select):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The knowledge base is empty: claims appear as runs measure the effect of their decisions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No claim matches &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Scope: %1&lt;br&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Supports the decision: &lt;tt&gt;%1&lt;/tt&gt;&lt;br&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status: %1; measured effect %2× over %3 observation(s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;Certified by the hardware probe: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;Updated %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run #%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 (missing from the project)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No evidence candidates recorded.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LineageView</name>
    <message>
        <source>All candidates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only valid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only elites</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find candidate #</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This project has no runs yet: start one to grow a lineage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All architectures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No candidates in this run yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No candidate of this run passes the filter (%1 candidates in the run).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 candidates shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 is hidden by the filter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 is not in this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>architecture: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>proposer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parents: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run&apos;s reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sealed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>elite of an archive cell</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New project…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Crucible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — Crucible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crucible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open %1: no such file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Opened %1: %n run(s).</source>
        <translation>
            <numerusform>Opened %1: %n run.</numerusform>
            <numerusform>Opened %1: %n runs.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a project Crucible can open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crucible projects (*.crucible)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crucible projects (*.crucible);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Crucible</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>any architecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any shape</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewQueueModel</name>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mutation</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReviewQueueView</name>
    <message>
        <source>Proposal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff against parent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note for the verdict (why)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept architecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject architecture</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Return</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Backspace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run is not gated: new architectures are evaluated without review.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No candidates awaiting review in this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>architecture: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Genome
%1
Descriptor
%2

Proposer: %3
Mutation: %4
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff (no parent)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff against #%1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RooflineView</name>
    <message>
        <source>Export PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ceilings of:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The task&apos;s flops formula is unusable (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 valid candidates plotted; not plotted: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No profiled candidates in this run yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No measured ceilings in this project: the roofs appear once the device&apos;s ceilings are measured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofs measured on %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arithmetic intensity (FLOP / DRAM byte)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Achieved FLOP/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>generation %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>generations %1–%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sealed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 · generation %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2 FLOP/B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 FLOPs (%2), %3 DRAM bytes, median %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SASS counters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>task formula</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of the DRAM roof here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run&apos;s reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Crucible roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Cannot write %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunControlView</name>
    <message>
        <source>no limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review new architectures before evaluating them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluations:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wall time:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU time:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best speedup over evaluations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>evaluations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best speedup (×)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This project has no tasks: add a task before starting a run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No proposer is available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A run is in progress: stop it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 evaluations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 evaluations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no valid candidate yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Proposer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SealModel</name>
    <message>
        <source>task #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Candidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Median</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sealed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VaultView</name>
    <message>
        <source>Validation report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Performance report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export .cu…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export sealed kernel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA source (*.cu)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sealed kernels yet: a candidate is sealed when it passes correctness and performance validation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seal #%1: candidate #%2 of run #%3, sealed %4
Measured on %5 (%6), driver %7, CUDA runtime %8, NVRTC %9, SM %10 MHz, memory %11 MHz%12</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, host %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>// The sealed candidate #%1 is missing from the project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seal #%1 is not in this project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sealed candidate #%1 is missing from the project.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>crucible::views</name>
    <message>
        <source>A workbench that evolves GPU kernels.&lt;br&gt;Licensed under the GPL, version 3 or later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Qt: %1 (built with %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA driver: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>version unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA driver: not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs: none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>crucible::views::ViewDocks</name>
    <message>
        <source>Run control</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lineage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vault</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>A workbench that evolves GPU kernels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Print the version and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open PROJECT, render the main window to the PNG &lt;file&gt; and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The project file (.crucible) to open.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>views</name>
    <message>
        <source>GPU: %1 (%2), CUDA driver %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> and %1 more GPU(s)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
