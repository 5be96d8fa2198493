<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>CandidateFigures</name>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>no descriptor</source>
        <translation>no descriptor</translation>
    </message>
    <message>
        <source>TMA maps %1</source>
        <translation>TMA maps %1</translation>
    </message>
    <message>
        <source>#%1 · generation %2 · %3</source>
        <translation>#%1 · generation %2 · %3</translation>
    </message>
    <message>
        <source>%1 median (IQR %2)</source>
        <translation>%1 median (IQR %2)</translation>
    </message>
    <message>
        <source>%1 the reference</source>
        <translation>%1 the reference</translation>
    </message>
    <message>
        <source>not timed</source>
        <translation>not timed</translation>
    </message>
    <message>
        <source>%1 registers</source>
        <translation>%1 registers</translation>
    </message>
    <message>
        <source>%1 B static smem</source>
        <translation>%1 B static smem</translation>
    </message>
    <message>
        <source>dynamic smem %1</source>
        <translation>dynamic smem %1</translation>
    </message>
    <message>
        <source>spills %1/%2 B</source>
        <translation>spills %1/%2 B</translation>
    </message>
    <message>
        <source>compile failed</source>
        <translation>compile failed</translation>
    </message>
    <message>
        <source>not compiled</source>
        <translation>not compiled</translation>
    </message>
    <message>
        <source>%1 median</source>
        <translation>%1 median</translation>
    </message>
</context>
<context>
    <name>DetailNotes</name>
    <message>
        <source>not profiled</source>
        <translation>not profiled</translation>
    </message>
    <message>
        <source>the profile lacks %1</source>
        <translation>the profile lacks %1</translation>
    </message>
    <message>
        <source>the profile lacks %1 or %2</source>
        <translation>the profile lacks %1 or %2</translation>
    </message>
    <message>
        <source>the profile lacks the SASS fadd/fmul/ffma counters</source>
        <translation>the profile lacks the SASS fadd/fmul/ffma counters</translation>
    </message>
    <message>
        <source>not stored: the profile has no bf16/fp16 tensor-path counters</source>
        <translation>not stored: the profile has no bf16/fp16 tensor-path counters</translation>
    </message>
    <message>
        <source>not timed</source>
        <translation>not timed</translation>
    </message>
    <message>
        <source>no ceilings measured in this project</source>
        <translation>no ceilings measured in this project</translation>
    </message>
    <message>
        <source>ceilings of several GPUs are stored and the GPU this candidate ran on is not</source>
        <translation>ceilings of several GPUs are stored and the GPU this candidate ran on is not</translation>
    </message>
    <message>
        <source>no %1 ceiling measured on %2</source>
        <translation>no %1 ceiling measured on %2</translation>
    </message>
    <message>
        <source>the task&apos;s spec is not stored</source>
        <translation>the task&apos;s spec is not stored</translation>
    </message>
    <message>
        <source>the task&apos;s spec does not parse: %1</source>
        <translation>the task&apos;s spec does not parse: %1</translation>
    </message>
    <message>
        <source>the task&apos;s %1 formula does not evaluate: %2</source>
        <translation>the task&apos;s %1 formula does not evaluate: %2</translation>
    </message>
    <message>
        <source>the task has no %1 formula</source>
        <translation>the task has no %1 formula</translation>
    </message>
    <message>
        <source>the block size does not evaluate: %1</source>
        <translation>the block size does not evaluate: %1</translation>
    </message>
    <message>
        <source>does not evaluate at the task&apos;s axes: %1</source>
        <translation>does not evaluate at the task&apos;s axes: %1</translation>
    </message>
    <message>
        <source>%1 does not evaluate: %2</source>
        <translation>%1 does not evaluate: %2</translation>
    </message>
    <message>
        <source>not compiled</source>
        <translation>not compiled</translation>
    </message>
    <message>
        <source>the compile failed</source>
        <translation>the compile failed</translation>
    </message>
    <message>
        <source>not compiled and no descriptor</source>
        <translation>not compiled and no descriptor</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>not recorded</translation>
    </message>
    <message>
        <source>the compile report has no log</source>
        <translation>the compile report has no log</translation>
    </message>
    <message>
        <source>none recorded</source>
        <translation>none recorded</translation>
    </message>
    <message>
        <source>no timing samples stored</source>
        <translation>no timing samples stored</translation>
    </message>
    <message>
        <source>no reference timed beside it</source>
        <translation>no reference timed beside it</translation>
    </message>
    <message>
        <source>not read while timing</source>
        <translation>not read while timing</translation>
    </message>
    <message>
        <source>not validated</source>
        <translation>not validated</translation>
    </message>
    <message>
        <source>not stored: the profile holds the theoretical occupancy and blocks per SM, not which resource (registers, shared memory, block size) limits them</source>
        <translation>not stored: the profile holds the theoretical occupancy and blocks per SM, not which resource (registers, shared memory, block size) limits them</translation>
    </message>
    <message>
        <source>read + written</source>
        <translation>read + written</translation>
    </message>
    <message>
        <source>%1 / median time</source>
        <translation>%1 / median time</translation>
    </message>
    <message>
        <source>of %1 measured on %2</source>
        <translation>of %1 measured on %2</translation>
    </message>
    <message>
        <source>the task&apos;s %1 formula</source>
        <translation>the task&apos;s %1 formula</translation>
    </message>
    <message>
        <source>SASS fadd + fmul + 2 × ffma</source>
        <translation>SASS fadd + fmul + 2 × ffma</translation>
    </message>
    <message>
        <source>mma/wgmma in the PTX features, or the descriptor</source>
        <translation>mma/wgmma in the PTX features, or the descriptor</translation>
    </message>
    <message>
        <source>task FLOPs / DRAM bytes (roofline)</source>
        <translation>task FLOPs / DRAM bytes (roofline)</translation>
    </message>
    <message>
        <source>SASS FLOPs / DRAM bytes (roofline)</source>
        <translation>SASS FLOPs / DRAM bytes (roofline)</translation>
    </message>
    <message>
        <source>launch rule</source>
        <translation>launch rule</translation>
    </message>
    <message>
        <source>launch rule: %1</source>
        <translation>launch rule: %1</translation>
    </message>
    <message>
        <source>launch rule %1 at %2</source>
        <translation>launch rule %1 at %2</translation>
    </message>
    <message>
        <source>launch rule %1 (does not evaluate at the task&apos;s axes: %2)</source>
        <translation>launch rule %1 (does not evaluate at the task&apos;s axes: %2)</translation>
    </message>
    <message>
        <source>grid</source>
        <translation>grid</translation>
    </message>
    <message>
        <source>block</source>
        <translation>block</translation>
    </message>
    <message>
        <source>grid × block</source>
        <translation>grid × block</translation>
    </message>
    <message>
        <source>block size / 32</source>
        <translation>block size / 32</translation>
    </message>
    <message>
        <source>NVRTC + ptxas</source>
        <translation>NVRTC + ptxas</translation>
    </message>
    <message>
        <source>NVRTC log</source>
        <translation>NVRTC log</translation>
    </message>
    <message>
        <source>PTX features</source>
        <translation>PTX features</translation>
    </message>
    <message>
        <source>stored with the timing</source>
        <translation>stored with the timing</translation>
    </message>
    <message>
        <source>IQR / median</source>
        <translation>IQR / median</translation>
    </message>
    <message>
        <source>timing samples</source>
        <translation>timing samples</translation>
    </message>
    <message>
        <source>reference median / median</source>
        <translation>reference median / median</translation>
    </message>
    <message>
        <source>the reference timed in the same worker</source>
        <translation>the reference timed in the same worker</translation>
    </message>
    <message>
        <source>read while timing</source>
        <translation>read while timing</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>validation</translation>
    </message>
    <message>
        <source>over the trials</source>
        <translation>over the trials</translation>
    </message>
    <message>
        <source>summed over the trials</source>
        <translation>summed over the trials</translation>
    </message>
    <message>
        <source>profile counter</source>
        <translation>profile counter</translation>
    </message>
    <message>
        <source>none (100 % theoretical)</source>
        <translation>none (100 % theoretical)</translation>
    </message>
    <message>
        <source>(the task&apos;s entry)</source>
        <translation>(the task&apos;s entry)</translation>
    </message>
    <message>
        <source>compiled</source>
        <translation>compiled</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errors</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n warning</numerusform>
            <numerusform>%n warnings</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
    <message>
        <source>seed %1: passed, max abs error %2, max rel error %3</source>
        <translation>seed %1: passed, max abs error %2, max rel error %3</translation>
    </message>
    <message>
        <source>seed %1: failed, max abs error %2, max rel error %3</source>
        <translation>seed %1: failed, max abs error %2, max rel error %3</translation>
    </message>
    <message numerus="yes">
        <source>%n mismatched</source>
        <translation>
            <numerusform>%n mismatched</numerusform>
            <numerusform>%n mismatched</numerusform>
        </translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s) not shown</source>
        <translation>
            <numerusform>… %n more line not shown</numerusform>
            <numerusform>… %n more lines not shown</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EngineMessages</name>
    <message numerus="yes">
        <source>evaluation budget of %n reached</source>
        <translation>
            <numerusform>evaluation budget of %n reached</numerusform>
            <numerusform>evaluation budget of %n reached</numerusform>
        </translation>
    </message>
    <message>
        <source>wall-time budget of %1 s reached</source>
        <translation>wall-time budget of %1 s reached</translation>
    </message>
    <message>
        <source>GPU-time budget of %1 s reached</source>
        <translation>GPU-time budget of %1 s reached</translation>
    </message>
    <message>
        <source>model budget spent: %1 of %2</source>
        <translation>model budget spent: %1 of %2</translation>
    </message>
    <message>
        <source>model token budget spent: %1 of %2 tokens</source>
        <translation>model token budget spent: %1 of %2 tokens</translation>
    </message>
    <message numerus="yes">
        <source>generation limit of %n reached</source>
        <translation>
            <numerusform>generation limit of %n reached</numerusform>
            <numerusform>generation limit of %n reached</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the proposer made no new configuration in %n generation(s) (search space exhausted)</source>
        <translation>
            <numerusform>the proposer made no new configuration in %n generation (search space exhausted)</numerusform>
            <numerusform>the proposer made no new configuration in %n generations (search space exhausted)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the proposer made no new configuration in %n generation(s); its last reason: %1</source>
        <translation>
            <numerusform>the proposer made no new configuration in %n generation; its last reason: %1</numerusform>
            <numerusform>the proposer made no new configuration in %n generations; its last reason: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>no candidate could be made for this %1 task: proposer &apos;%2&apos; says: %3 (add a tunable kernel, or use a language-model proposer)</source>
        <translation>no candidate could be made for this %1 task: proposer &apos;%2&apos; says: %3 (add a tunable kernel, or use a language-model proposer)</translation>
    </message>
    <message>
        <source>run finished: %1</source>
        <translation>run finished: %1</translation>
    </message>
    <message>
        <source>run stopped; it can be resumed</source>
        <translation>run stopped; it can be resumed</translation>
    </message>
    <message>
        <source>run failed: %1</source>
        <translation>run failed: %1</translation>
    </message>
    <message numerus="yes">
        <source>resuming: %n candidate(s) were in flight</source>
        <translation>
            <numerusform>resuming: %n candidate was in flight</numerusform>
            <numerusform>resuming: %n candidates were in flight</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>waiting for review of %n new architecture(s)</source>
        <translation>
            <numerusform>waiting for review of %n new architecture</numerusform>
            <numerusform>waiting for review of %n new architectures</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>generation %1: %n elite(s) migrated between islands</source>
        <translation>
            <numerusform>generation %1: %n elite migrated between islands</numerusform>
            <numerusform>generation %1: %n elites migrated between islands</numerusform>
        </translation>
    </message>
    <message>
        <source>strategy &apos;%1&apos; varied into &apos;%2&apos;</source>
        <translation>strategy &apos;%1&apos; varied into &apos;%2&apos;</translation>
    </message>
    <message>
        <source>no sanitizer is configured: candidates are validated, but none can be sealed</source>
        <translation>no sanitizer is configured: candidates are validated, but none can be sealed</translation>
    </message>
    <message>
        <source>reference timed: median %1 µs on %2</source>
        <translation>reference timed: median %1 µs on %2</translation>
    </message>
    <message numerus="yes">
        <source>measured %n ceiling(s) of %1</source>
        <translation>
            <numerusform>measured %n ceiling of %1</numerusform>
            <numerusform>measured %n ceilings of %1</numerusform>
        </translation>
    </message>
    <message>
        <source>could not measure the device ceilings: %1</source>
        <translation>could not measure the device ceilings: %1</translation>
    </message>
    <message numerus="yes">
        <source>reference profiled: %n metric(s)</source>
        <translation>
            <numerusform>reference profiled: %n metric</numerusform>
            <numerusform>reference profiled: %n metrics</numerusform>
        </translation>
    </message>
    <message>
        <source>the reference was not profiled</source>
        <translation>the reference was not profiled</translation>
    </message>
    <message>
        <source>the reference was not profiled: %1</source>
        <translation>the reference was not profiled: %1</translation>
    </message>
    <message>
        <source>the reference could not be profiled: %1</source>
        <translation>the reference could not be profiled: %1</translation>
    </message>
    <message>
        <source>no reference analysis: the task spec does not parse: %1</source>
        <translation>no reference analysis: the task spec does not parse: %1</translation>
    </message>
    <message>
        <source>proposer &apos;%1&apos; gave no seed: %2</source>
        <translation>proposer &apos;%1&apos; gave no seed: %2</translation>
    </message>
    <message>
        <source>proposer &apos;%1&apos; made no candidate (%2): %3</source>
        <translation>proposer &apos;%1&apos; made no candidate (%2): %3</translation>
    </message>
    <message>
        <source>proposal discarded: %1</source>
        <translation>proposal discarded: %1</translation>
    </message>
    <message>
        <source>user candidate %1 joined the run: %2, fitness %3</source>
        <translation>user candidate %1 joined the run: %2, fitness %3</translation>
    </message>
    <message>
        <source>user candidate %1 joined the run: %2</source>
        <translation>user candidate %1 joined the run: %2</translation>
    </message>
    <message>
        <source>user candidate %1 cannot enter the archive: %2</source>
        <translation>user candidate %1 cannot enter the archive: %2</translation>
    </message>
    <message>
        <source>another process asked this run to stop (%1)</source>
        <translation>another process asked this run to stop (%1)</translation>
    </message>
    <message>
        <source>the archive starts from the seal&apos;s architecture %1</source>
        <translation>the archive starts from the seal&apos;s architecture %1</translation>
    </message>
    <message>
        <source>info</source>
        <translation>info</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>warning</translation>
    </message>
    <message>
        <source>error</source>
        <translation>error</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>any architecture</source>
        <translation>any architecture</translation>
    </message>
    <message>
        <source>any operator</source>
        <translation>any operator</translation>
    </message>
    <message>
        <source>any shape</source>
        <translation>any shape</translation>
    </message>
    <message>
        <source>no key store</source>
        <translation>no key store</translation>
    </message>
    <message>
        <source>Language models</source>
        <translation>Language models</translation>
    </message>
    <message>
        <source>The key was not stored: %1</source>
        <translation>The key was not stored: %1</translation>
    </message>
</context>
<context>
    <name>RooflineReasons</name>
    <message>
        <source>not timed</source>
        <translation>not timed</translation>
    </message>
    <message>
        <source>not profiled</source>
        <translation>not profiled</translation>
    </message>
    <message>
        <source>profile lacks the DRAM and L2 byte counters (%1, %2)</source>
        <translation>profile lacks the DRAM and L2 byte counters (%1, %2)</translation>
    </message>
    <message>
        <source>tensor-core kernel and the task has no usable flops formula</source>
        <translation>tensor-core kernel and the task has no usable flops formula</translation>
    </message>
    <message>
        <source>profile lacks the SASS fadd/fmul/ffma counters</source>
        <translation>profile lacks the SASS fadd/fmul/ffma counters</translation>
    </message>
    <message>
        <source>no floating-point work counted</source>
        <translation>no floating-point work counted</translation>
    </message>
    <message>
        <source>no DRAM traffic counted</source>
        <translation>no DRAM traffic counted</translation>
    </message>
    <message>
        <source>profile lacks %1 or %2</source>
        <translation>profile lacks %1 or %2</translation>
    </message>
</context>
<context>
    <name>StatusNames</name>
    <message>
        <source>proposed</source>
        <translation>proposed</translation>
    </message>
    <message>
        <source>awaiting-review</source>
        <translation>awaiting-review</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>rejected</translation>
    </message>
    <message>
        <source>compiled</source>
        <translation>compiled</translation>
    </message>
    <message>
        <source>compile-failed</source>
        <translation>compile-failed</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>invalid</translation>
    </message>
    <message>
        <source>faulted</source>
        <translation>faulted</translation>
    </message>
    <message>
        <source>timed-out</source>
        <translation>timed-out</translation>
    </message>
    <message>
        <source>resource-error</source>
        <translation>resource-error</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>valid</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>reference</translation>
    </message>
    <message>
        <source>created</source>
        <comment>run status</comment>
        <translation>created</translation>
    </message>
    <message>
        <source>running</source>
        <comment>run status</comment>
        <translation>running</translation>
    </message>
    <message>
        <source>paused</source>
        <comment>run status</comment>
        <translation>paused</translation>
    </message>
    <message>
        <source>stopped</source>
        <comment>run status</comment>
        <translation>stopped</translation>
    </message>
    <message>
        <source>finished</source>
        <comment>run status</comment>
        <translation>finished</translation>
    </message>
    <message>
        <source>failed</source>
        <comment>run status</comment>
        <translation>failed</translation>
    </message>
    <message>
        <source>hypothesis</source>
        <comment>knowledge status</comment>
        <translation>hypothesis</translation>
    </message>
    <message>
        <source>validated</source>
        <comment>knowledge status</comment>
        <translation>validated</translation>
    </message>
    <message>
        <source>refuted</source>
        <comment>knowledge status</comment>
        <translation>refuted</translation>
    </message>
</context>
<context>
    <name>crucible::app::DraftKeeper</name>
    <message>
        <source>Your unsaved edit could not be kept in the project: %1</source>
        <translation>Your unsaved edit could not be kept in the project: %1</translation>
    </message>
    <message>
        <source>An old draft could not be deleted from the project: %1</source>
        <translation>An old draft could not be deleted from the project: %1</translation>
    </message>
    <message>
        <source>Restore unsaved edit of kernel forked from #%1 (saved %2)?</source>
        <translation>Restore unsaved edit of kernel forked from #%1 (saved %2)?</translation>
    </message>
    <message>
        <source>Restore unsaved edit of a kernel opened from a file into run #%1 (saved %2)?</source>
        <translation>Restore unsaved edit of a kernel opened from a file into run #%1 (saved %2)?</translation>
    </message>
    <message>
        <source>Unsaved kernel edit</source>
        <translation>Unsaved kernel edit</translation>
    </message>
    <message>
        <source>The kernel editor held an edit that was not evaluated when the workbench last closed. Discard deletes it from the project.</source>
        <translation>The kernel editor held an edit that was not evaluated when the workbench last closed. Discard deletes it from the project.</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Restore</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>Discard</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Later</translation>
    </message>
    <message>
        <source>cannot write a scratch copy: %1</source>
        <translation>cannot write a scratch copy: %1</translation>
    </message>
    <message>
        <source>The unsaved edit was not restored (it stays in the project): %1</source>
        <translation>The unsaved edit was not restored (it stays in the project): %1</translation>
    </message>
</context>
<context>
    <name>crucible::app::EngineController</name>
    <message>
        <source>A run is already in progress.</source>
        <translation>A run is already in progress.</translation>
    </message>
</context>
<context>
    <name>crucible::app::GuiBackends</name>
    <message>
        <source>this build of Crucible has no CUDA support (CRUCIBLE_HAVE_CUDA is off)</source>
        <translation>this build of Crucible has no CUDA support (CRUCIBLE_HAVE_CUDA is off)</translation>
    </message>
    <message>
        <source>Nothing can be evaluated here: this build of Crucible has no CUDA support.</source>
        <translation>Nothing can be evaluated here: this build of Crucible has no CUDA support.</translation>
    </message>
</context>
<context>
    <name>crucible::app::HostProbe</name>
    <message>
        <source>GPU: %1 (%2), CUDA driver %3</source>
        <translation>GPU: %1 (%2), CUDA driver %3</translation>
    </message>
    <message>
        <source> and %1 more GPU(s)</source>
        <translation> and %1 more GPU(s)</translation>
    </message>
</context>
<context>
    <name>crucible::app::NoCudaInspector</name>
    <message>
        <source>no CUDA toolkit in this build: Crucible was built without CUDA (CRUCIBLE_HAVE_CUDA is off), so kernels cannot be compiled or inspected here</source>
        <translation>no CUDA toolkit in this build: Crucible was built without CUDA (CRUCIBLE_HAVE_CUDA is off), so kernels cannot be compiled or inspected here</translation>
    </message>
    <message>
        <source>no SASS: no CUDA toolkit in this build</source>
        <translation>no SASS: no CUDA toolkit in this build</translation>
    </message>
</context>
<context>
    <name>crucible::app::RunCoordinator</name>
    <message>
        <source>&amp;Resume run</source>
        <translation>&amp;Resume run</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <source>&amp;Import task...</source>
        <translation>&amp;Import task...</translation>
    </message>
    <message>
        <source>No project open: the verdict was not recorded.</source>
        <translation>No project open: the verdict was not recorded.</translation>
    </message>
    <message>
        <source>The verdict was not recorded: %1</source>
        <translation>The verdict was not recorded: %1</translation>
    </message>
    <message>
        <source>The verdict on %1 was not recorded: %2</source>
        <translation>The verdict on %1 was not recorded: %2</translation>
    </message>
    <message>
        <source>The project is open read-only (%1): nothing can be recorded in it.</source>
        <translation>The project is open read-only (%1): nothing can be recorded in it.</translation>
    </message>
    <message>
        <source>Stopping the run of %1: it stays resumable.</source>
        <translation>Stopping the run of %1: it stays resumable.</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>A run is in progress.</source>
        <translation>A run is in progress.</translation>
    </message>
    <message>
        <source>No run selected.</source>
        <translation>No run selected.</translation>
    </message>
    <message>
        <source>Run %1 is %2: only a stopped or interrupted run can be resumed.</source>
        <translation>Run %1 is %2: only a stopped or interrupted run can be resumed.</translation>
    </message>
    <message>
        <source>Continue the selected run where it stopped.</source>
        <translation>Continue the selected run where it stopped.</translation>
    </message>
    <message>
        <source>Add a task spec (.json, format in resources/tasks/README.md) to the project</source>
        <translation>Add a task spec (.json, format in resources/tasks/README.md) to the project</translation>
    </message>
    <message>
        <source>Unknown proposer &quot;%1&quot;: this workbench offers &quot;template&quot; and &quot;llm&quot;.</source>
        <translation>Unknown proposer &quot;%1&quot;: this workbench offers &quot;template&quot; and &quot;llm&quot;.</translation>
    </message>
    <message>
        <source>A run is in progress: stop it first.</source>
        <translation>A run is in progress: stop it first.</translation>
    </message>
    <message>
        <source>No built-in task named &quot;%1&quot;.</source>
        <translation>No built-in task named &quot;%1&quot;.</translation>
    </message>
    <message>
        <source>Task %1 is not in the project: its starting kernels cannot be checked.</source>
        <translation>Task %1 is not in the project: its starting kernels cannot be checked.</translation>
    </message>
    <message>
        <source>Starting kernel &apos;%1&apos; cannot start this run: %2</source>
        <translation>Starting kernel &apos;%1&apos; cannot start this run: %2</translation>
    </message>
    <message>
        <source>Run %1 was proposed for by a language model: %2</source>
        <translation>Run %1 was proposed for by a language model: %2</translation>
    </message>
    <message>
        <source>Run %1 cannot be resumed: %2</source>
        <translation>Run %1 cannot be resumed: %2</translation>
    </message>
    <message>
        <source>Run %1 started.</source>
        <translation>Run %1 started.</translation>
    </message>
    <message>
        <source>Run %1 failed: %2</source>
        <translation>Run %1 failed: %2</translation>
    </message>
    <message>
        <source>Architecture %1 waits for your review.</source>
        <translation>Architecture %1 waits for your review.</translation>
    </message>
    <message>
        <source>No project is open: open or create one first.</source>
        <translation>No project is open: open or create one first.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Task %1 is in the project.</source>
        <translation>Task %1 is in the project.</translation>
    </message>
    <message>
        <source>Import task</source>
        <translation>Import task</translation>
    </message>
    <message>
        <source>Task specs (*.json);;All files (*)</source>
        <translation>Task specs (*.json);;All files (*)</translation>
    </message>
    <message>
        <source>no language model is set up.</source>
        <translation>no language model is set up.</translation>
    </message>
    <message>
        <source>the language-model preferences are not usable (%1).</source>
        <translation>the language-model preferences are not usable (%1).</translation>
    </message>
    <message>
        <source>Templates</source>
        <translation>Templates</translation>
    </message>
    <message>
        <source>Language model</source>
        <translation>Language model</translation>
    </message>
    <message>
        <source>Open Edit &gt; Preferences... to set it up.</source>
        <translation>Open Edit &gt; Preferences... to set it up.</translation>
    </message>
    <message>
        <source>The language model is not set up (%1): open Edit &gt; Preferences...</source>
        <translation>The language model is not set up (%1): open Edit &gt; Preferences...</translation>
    </message>
    <message>
        <source>the system keychain holds no key under %1</source>
        <translation>the system keychain holds no key under %1</translation>
    </message>
    <message>
        <source>No key for the language model: %1, and the environment variable %2 is not set. Store the key in Edit &gt; Preferences... or set %2 before starting Crucible.</source>
        <translation>No key for the language model: %1, and the environment variable %2 is not set. Store the key in Edit &gt; Preferences... or set %2 before starting Crucible.</translation>
    </message>
    <message>
        <source>Stopping the run: the window closes once the candidates in flight are done (the run stays resumable).</source>
        <translation>Stopping the run: the window closes once the candidates in flight are done (the run stays resumable).</translation>
    </message>
    <message>
        <source>Reference kernel &apos;%1&apos; cannot be this run&apos;s reference: %2</source>
        <translation>Reference kernel &apos;%1&apos; cannot be this run&apos;s reference: %2</translation>
    </message>
    <message>
        <source>the task&apos;s spec does not parse: %1</source>
        <translation>the task&apos;s spec does not parse: %1</translation>
    </message>
</context>
<context>
    <name>crucible::app::UserEvaluationRunner</name>
    <message>
        <source>Nothing can be evaluated here: no compiler or GPU backend.</source>
        <translation>Nothing can be evaluated here: no compiler or GPU backend.</translation>
    </message>
    <message>
        <source>An evaluation is in progress.</source>
        <translation>An evaluation is in progress.</translation>
    </message>
    <message>
        <source>Open a project: the evaluated kernel joins one of its runs.</source>
        <translation>Open a project: the evaluated kernel joins one of its runs.</translation>
    </message>
    <message>
        <source>This project cannot record a candidate: %1.</source>
        <translation>This project cannot record a candidate: %1.</translation>
    </message>
    <message>
        <source>This window has no kernel editor.</source>
        <translation>This window has no kernel editor.</translation>
    </message>
    <message>
        <source>Nothing to evaluate: fork a candidate or open a kernel of the open project first.</source>
        <translation>Nothing to evaluate: fork a candidate or open a kernel of the open project first.</translation>
    </message>
    <message>
        <source>This machine&apos;s GPU could not be identified: %1</source>
        <translation>This machine&apos;s GPU could not be identified: %1</translation>
    </message>
    <message>
        <source>Not evaluated: %1</source>
        <translation>Not evaluated: %1</translation>
    </message>
    <message>
        <source>Evaluating your kernel</source>
        <translation>Evaluating your kernel</translation>
    </message>
    <message>
        <source>Seal #%1 not validated again: %2</source>
        <translation>Seal #%1 not validated again: %2</translation>
    </message>
    <message>
        <source>seal #%1 is not in this project</source>
        <translation>seal #%1 is not in this project</translation>
    </message>
    <message>
        <source>Not validated again: %1</source>
        <translation>Not validated again: %1</translation>
    </message>
    <message>
        <source>Seal #%1 validated again on this GPU (sealed on %2)</source>
        <translation>Seal #%1 validated again on this GPU (sealed on %2)</translation>
    </message>
    <message>
        <source>Validating seal #%1 again</source>
        <translation>Validating seal #%1 again</translation>
    </message>
    <message>
        <source>Preparing…</source>
        <translation>Preparing…</translation>
    </message>
    <message>
        <source>Cancelling: the step in flight finishes, then nothing is stored.</source>
        <translation>Cancelling: the step in flight finishes, then nothing is stored.</translation>
    </message>
    <message>
        <source>Seal #%1 was not validated again: %2</source>
        <translation>Seal #%1 was not validated again: %2</translation>
    </message>
    <message>
        <source>Your kernel was not evaluated: %1</source>
        <translation>Your kernel was not evaluated: %1</translation>
    </message>
    <message>
        <source>Evaluation cancelled: nothing was stored.</source>
        <translation>Evaluation cancelled: nothing was stored.</translation>
    </message>
    <message>
        <source>Your kernel is candidate #%1 of run %2: %3</source>
        <translation>Your kernel is candidate #%1 of run %2: %3</translation>
    </message>
    <message>
        <source>, %1x the reference</source>
        <translation>, %1x the reference</translation>
    </message>
    <message>
        <source>; sealed</source>
        <translation>; sealed</translation>
    </message>
    <message>
        <source>Seal #%1 validated again on %2: %3</source>
        <translation>Seal #%1 validated again on %2: %3</translation>
    </message>
    <message>
        <source>the dispatcher %1 has no GPU</source>
        <translation>the dispatcher %1 has no GPU</translation>
    </message>
    <message>
        <source>the dispatcher %1 has no GPU to evaluate on</source>
        <translation>the dispatcher %1 has no GPU to evaluate on</translation>
    </message>
    <message>
        <source>the sealed candidate #%1 is missing</source>
        <translation>the sealed candidate #%1 is missing</translation>
    </message>
    <message>
        <source>Loading the run and compiling its reference…</source>
        <translation>Loading the run and compiling its reference…</translation>
    </message>
    <message>
        <source>Compiling the kernel…</source>
        <translation>Compiling the kernel…</translation>
    </message>
    <message>
        <source>Validating, timing against the reference and profiling…</source>
        <translation>Validating, timing against the reference and profiling…</translation>
    </message>
    <message>
        <source>Storing the candidate…</source>
        <translation>Storing the candidate…</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Done</translation>
    </message>
</context>
<context>
    <name>crucible::gui::KeyStore</name>
    <message>
        <source>the system keychain did not answer within %1 s (%2)</source>
        <translation>the system keychain did not answer within %1 s (%2)</translation>
    </message>
    <message>
        <source>no key is stored under %1</source>
        <translation>no key is stored under %1</translation>
    </message>
    <message>
        <source>no system keychain is available (%1); set the key in the environment variable %2 instead</source>
        <translation>no system keychain is available (%1); set the key in the environment variable %2 instead</translation>
    </message>
    <message>
        <source>the system keychain refused access (%1)</source>
        <translation>the system keychain refused access (%1)</translation>
    </message>
    <message>
        <source>the system keychain failed (%1); set the key in the environment variable %2 instead</source>
        <translation>the system keychain failed (%1); set the key in the environment variable %2 instead</translation>
    </message>
    <message>
        <source>the key needs a name (the key variable)</source>
        <translation>the key needs a name (the key variable)</translation>
    </message>
    <message>
        <source>the key is empty</source>
        <translation>the key is empty</translation>
    </message>
    <message>
        <source>storing %1</source>
        <translation>storing %1</translation>
    </message>
    <message>
        <source>reading %1</source>
        <translation>reading %1</translation>
    </message>
    <message>
        <source>removing %1</source>
        <translation>removing %1</translation>
    </message>
</context>
<context>
    <name>crucible::views::AboutBox</name>
    <message>
        <source>A workbench that evolves GPU kernels.&lt;br&gt;Licensed under the GPL, version 3 or later.</source>
        <translation>A workbench that evolves GPU kernels.&lt;br&gt;Licensed under the GPL, version 3 or later.</translation>
    </message>
    <message>
        <source>Qt: %1 (built with %2)</source>
        <translation>Qt: %1 (built with %2)</translation>
    </message>
    <message>
        <source>CUDA driver: %1</source>
        <translation>CUDA driver: %1</translation>
    </message>
    <message>
        <source>version unknown</source>
        <translation>version unknown</translation>
    </message>
    <message>
        <source>CUDA driver: not found</source>
        <translation>CUDA driver: not found</translation>
    </message>
    <message>
        <source>GPUs: none</source>
        <translation>GPUs: none</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPUs:</translation>
    </message>
</context>
<context>
    <name>crucible::views::AddClaimDialog</name>
    <message>
        <source>Add claim</source>
        <translation>Add claim</translation>
    </message>
    <message>
        <source>empty: any operator</source>
        <translation>empty: any operator</translation>
    </message>
    <message>
        <source>empty: any shape; or e.g. M~2^13 N~2^12</source>
        <translation>empty: any shape; or e.g. M~2^13 N~2^12</translation>
    </message>
    <message>
        <source>vector: 1 -&gt; 4, or vector=4</source>
        <translation>vector: 1 -&gt; 4, or vector=4</translation>
    </message>
    <message>
        <source>The claim in your words</source>
        <translation>The claim in your words</translation>
    </message>
    <message>
        <source>Pin: use it as validated before any evidence arrives</source>
        <translation>Pin: use it as validated before any evidence arrives</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>Architecture:</translation>
    </message>
    <message>
        <source>Operator family:</source>
        <translation>Operator family:</translation>
    </message>
    <message>
        <source>Shape class:</source>
        <translation>Shape class:</translation>
    </message>
    <message>
        <source>Decision:</source>
        <translation>Decision:</translation>
    </message>
    <message>
        <source>Claim:</source>
        <translation>Claim:</translation>
    </message>
    <message>
        <source>A claim you add is a hypothesis with no evidence: runs use it once observations of its decision validate it, or at once if you pin it.</source>
        <translation>A claim you add is a hypothesis with no evidence: runs use it once observations of its decision validate it, or at once if you pin it.</translation>
    </message>
</context>
<context>
    <name>crucible::views::ArchiveGridModel</name>
    <message>
        <source>empty cell</source>
        <translation>empty cell</translation>
    </message>
    <message>
        <source>elite #%1, fitness %2
%3 = %4, %5 = %6
best of %7 archive cell(s)</source>
        <translation>elite #%1, fitness %2
%3 = %4, %5 = %6
best of %7 archive cell(s)</translation>
    </message>
</context>
<context>
    <name>crucible::views::ArchiveMapView</name>
    <message>
        <source>Columns:</source>
        <translation>Columns:</translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation>Rows:</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation>This project has no runs yet.</translation>
    </message>
    <message>
        <source>The archive of this run is empty: no candidate has been placed in a cell yet.</source>
        <translation>The archive of this run is empty: no candidate has been placed in a cell yet.</translation>
    </message>
    <message>
        <source>%1 archive cells, %2 of %3 shown cells filled</source>
        <translation>%1 archive cells, %2 of %3 shown cells filled</translation>
    </message>
    <message>
        <source>Select #%1</source>
        <translation>Select #%1</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit #%1</source>
        <translation>Fork &amp;&amp; edit #%1</translation>
    </message>
</context>
<context>
    <name>crucible::views::CandidateDetailsView</name>
    <message>
        <source>none</source>
        <translation>none</translation>
    </message>
    <message>
        <source>Show every figure beside this candidate&apos;s, with the difference</source>
        <translation>Show every figure beside this candidate&apos;s, with the difference</translation>
    </message>
    <message>
        <source>Baseline:</source>
        <translation>Baseline:</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>Figures</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>No candidate selected.</source>
        <translation>No candidate selected.</translation>
    </message>
    <message>
        <source>No candidate selected: select one in any view.</source>
        <translation>No candidate selected: select one in any view.</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation>Candidate #%1 is not in this project.</translation>
    </message>
    <message>
        <source>The baseline #%1 is not in this project.</source>
        <translation>The baseline #%1 is not in this project.</translation>
    </message>
    <message>
        <source>The baseline is this candidate: every difference is 0.</source>
        <translation>The baseline is this candidate: every difference is 0.</translation>
    </message>
    <message>
        <source>reference median timed beside #%1 (dashed)</source>
        <translation>reference median timed beside #%1 (dashed)</translation>
    </message>
    <message>
        <source>reference #%1</source>
        <translation>reference #%1</translation>
    </message>
    <message>
        <source>baseline #%1</source>
        <translation>baseline #%1</translation>
    </message>
    <message>
        <source>#%1 is not timed.</source>
        <translation>#%1 is not timed.</translation>
    </message>
</context>
<context>
    <name>crucible::views::CandidatesModel</name>
    <message>
        <source>Candidate</source>
        <translation>Candidate</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>Generation</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Architecture</translation>
    </message>
    <message>
        <source>Proposer / mutation</source>
        <translation>Proposer / mutation</translation>
    </message>
    <message>
        <source>Median µs</source>
        <translation>Median µs</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>Speedup</translation>
    </message>
    <message>
        <source>Registers</source>
        <translation>Registers</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
</context>
<context>
    <name>crucible::views::CompareView</name>
    <message>
        <source>Figures</source>
        <translation>Figures</translation>
    </message>
    <message>
        <source>Source diff</source>
        <translation>Source diff</translation>
    </message>
    <message>
        <source>%1 candidates chosen: the first %2 are compared.</source>
        <translation>%1 candidates chosen: the first %2 are compared.</translation>
    </message>
    <message>
        <source>Nothing to compare.</source>
        <translation>Nothing to compare.</translation>
    </message>
    <message>
        <source>Select two or more candidates to compare them.</source>
        <translation>Select two or more candidates to compare them.</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation>Candidate #%1 is not in this project.</translation>
    </message>
    <message>
        <source>Select at least two candidates to compare them.</source>
        <translation>Select at least two candidates to compare them.</translation>
    </message>
    <message>
        <source>Comparing %1</source>
        <translation>Comparing %1</translation>
    </message>
    <message>
        <source>None of them is timed.</source>
        <translation>None of them is timed.</translation>
    </message>
    <message>
        <source>#%1 (left) against #%2 (right)</source>
        <translation>#%1 (left) against #%2 (right)</translation>
    </message>
    <message>
        <source>The source diff needs two candidates.</source>
        <translation>The source diff needs two candidates.</translation>
    </message>
</context>
<context>
    <name>crucible::views::DetailLabels</name>
    <message>
        <source>Architecture</source>
        <translation>Architecture</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>Diagnostics</translation>
    </message>
    <message>
        <source>PTX features</source>
        <translation>PTX features</translation>
    </message>
    <message>
        <source>ptxas log</source>
        <translation>ptxas log</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Result</translation>
    </message>
    <message>
        <source>Compile time</source>
        <translation>Compile time</translation>
    </message>
    <message>
        <source>FP32 FLOPs</source>
        <translation>FP32 FLOPs</translation>
    </message>
    <message>
        <source>FP32 FLOP/s</source>
        <translation>FP32 FLOP/s</translation>
    </message>
    <message>
        <source>FP32, % of FMA roof</source>
        <translation>FP32, % of FMA roof</translation>
    </message>
    <message>
        <source>Arithmetic intensity</source>
        <translation>Arithmetic intensity</translation>
    </message>
    <message>
        <source>Task FLOPs</source>
        <translation>Task FLOPs</translation>
    </message>
    <message>
        <source>Task FLOP/s</source>
        <translation>Task FLOP/s</translation>
    </message>
    <message>
        <source>Tensor-core FLOPs</source>
        <translation>Tensor-core FLOPs</translation>
    </message>
    <message>
        <source>Tensor-core FLOP/s</source>
        <translation>Tensor-core FLOP/s</translation>
    </message>
    <message>
        <source>Tensor cores, % of BF16 roof</source>
        <translation>Tensor cores, % of BF16 roof</translation>
    </message>
    <message>
        <source>Uses tensor cores</source>
        <translation>Uses tensor cores</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>Blocks</translation>
    </message>
    <message>
        <source>Registers per thread (driver)</source>
        <translation>Registers per thread (driver)</translation>
    </message>
    <message>
        <source>Dynamic shared memory</source>
        <translation>Dynamic shared memory</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Entry</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
    <message>
        <source>Local memory per thread</source>
        <translation>Local memory per thread</translation>
    </message>
    <message>
        <source>Max threads per block (compiled)</source>
        <translation>Max threads per block (compiled)</translation>
    </message>
    <message>
        <source>Registers per thread</source>
        <translation>Registers per thread</translation>
    </message>
    <message>
        <source>Spill loads</source>
        <translation>Spill loads</translation>
    </message>
    <message>
        <source>Spill stores</source>
        <translation>Spill stores</translation>
    </message>
    <message>
        <source>Static shared memory</source>
        <translation>Static shared memory</translation>
    </message>
    <message>
        <source>TMA tensor maps</source>
        <translation>TMA tensor maps</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>Threads per block</source>
        <translation>Threads per block</translation>
    </message>
    <message>
        <source>Achieved occupancy</source>
        <translation>Achieved occupancy</translation>
    </message>
    <message>
        <source>Blocks per SM (theoretical)</source>
        <translation>Blocks per SM (theoretical)</translation>
    </message>
    <message>
        <source>Occupancy limiter</source>
        <translation>Occupancy limiter</translation>
    </message>
    <message>
        <source>Theoretical occupancy</source>
        <translation>Theoretical occupancy</translation>
    </message>
    <message>
        <source>Warps per block</source>
        <translation>Warps per block</translation>
    </message>
    <message>
        <source>DRAM bandwidth</source>
        <translation>DRAM bandwidth</translation>
    </message>
    <message>
        <source>DRAM bytes</source>
        <translation>DRAM bytes</translation>
    </message>
    <message>
        <source>DRAM bytes read</source>
        <translation>DRAM bytes read</translation>
    </message>
    <message>
        <source>DRAM bandwidth, % of roof</source>
        <translation>DRAM bandwidth, % of roof</translation>
    </message>
    <message>
        <source>DRAM bytes written</source>
        <translation>DRAM bytes written</translation>
    </message>
    <message>
        <source>Effective bandwidth</source>
        <translation>Effective bandwidth</translation>
    </message>
    <message>
        <source>Effective bandwidth, % of DRAM roof</source>
        <translation>Effective bandwidth, % of DRAM roof</translation>
    </message>
    <message>
        <source>L1 bandwidth</source>
        <translation>L1 bandwidth</translation>
    </message>
    <message>
        <source>L1 bytes</source>
        <translation>L1 bytes</translation>
    </message>
    <message>
        <source>L2 bandwidth</source>
        <translation>L2 bandwidth</translation>
    </message>
    <message>
        <source>L2 bytes</source>
        <translation>L2 bytes</translation>
    </message>
    <message>
        <source>L2 bandwidth, % of roof</source>
        <translation>L2 bandwidth, % of roof</translation>
    </message>
    <message>
        <source>Task minimum bytes</source>
        <translation>Task minimum bytes</translation>
    </message>
    <message>
        <source>Interquartile range</source>
        <translation>Interquartile range</translation>
    </message>
    <message>
        <source>Interquartile range / median</source>
        <translation>Interquartile range / median</translation>
    </message>
    <message>
        <source>Maximum</source>
        <translation>Maximum</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mean</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>Median</translation>
    </message>
    <message>
        <source>Minimum</source>
        <translation>Minimum</translation>
    </message>
    <message>
        <source>Duration under the profiler</source>
        <translation>Duration under the profiler</translation>
    </message>
    <message>
        <source>Reference interquartile range</source>
        <translation>Reference interquartile range</translation>
    </message>
    <message>
        <source>Reference median (interleaved)</source>
        <translation>Reference median (interleaved)</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>Samples</translation>
    </message>
    <message>
        <source>SM clock</source>
        <translation>SM clock</translation>
    </message>
    <message>
        <source>Speedup over the reference</source>
        <translation>Speedup over the reference</translation>
    </message>
    <message>
        <source>Spread (max − min)</source>
        <translation>Spread (max − min)</translation>
    </message>
    <message>
        <source>Largest absolute error</source>
        <translation>Largest absolute error</translation>
    </message>
    <message>
        <source>Largest relative error</source>
        <translation>Largest relative error</translation>
    </message>
    <message>
        <source>Mismatched elements</source>
        <translation>Mismatched elements</translation>
    </message>
    <message>
        <source>Trials passed</source>
        <translation>Trials passed</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Trials</translation>
    </message>
    <message>
        <source>Trial %1</source>
        <translation>Trial %1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>yes</translation>
    </message>
    <message>
        <source>no</source>
        <translation>no</translation>
    </message>
</context>
<context>
    <name>crucible::views::DetailsModel</name>
    <message>
        <source>missing: not recorded for this candidate</source>
        <translation>missing: not recorded for this candidate</translation>
    </message>
    <message>
        <source>not recorded for this candidate</source>
        <translation>not recorded for this candidate</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>from %1</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metric</translation>
    </message>
    <message>
        <source>Baseline #%1</source>
        <translation>Baseline #%1</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>Difference</translation>
    </message>
    <message>
        <source>%1 against #%2</source>
        <translation>%1 against #%2</translation>
    </message>
    <message>
        <source>missing: %1</source>
        <translation>missing: %1</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Throughput</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Compute</translation>
    </message>
    <message>
        <source>Occupancy</source>
        <translation>Occupancy</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>Launch</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>Compile</translation>
    </message>
    <message>
        <source>Timing</source>
        <translation>Timing</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validation</translation>
    </message>
    <message>
        <source>Other counters</source>
        <translation>Other counters</translation>
    </message>
    <message>
        <source>registers</source>
        <translation>registers</translation>
    </message>
    <message>
        <source>warps</source>
        <translation>warps</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>blocks</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>threads</translation>
    </message>
    <message>
        <source>trials</source>
        <translation>trials</translation>
    </message>
    <message>
        <source>launches</source>
        <translation>launches</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>elements</translation>
    </message>
    <message>
        <source>instructions</source>
        <translation>instructions</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>samples</translation>
    </message>
    <message>
        <source>%1 pp</source>
        <translation>%1 pp</translation>
    </message>
    <message>
        <source>operations</source>
        <translation>operations</translation>
    </message>
</context>
<context>
    <name>crucible::views::DiffView</name>
    <message>
        <source>none</source>
        <translation>none</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>Swap</translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation>Previous change</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>Next change</translation>
    </message>
    <message>
        <source>Left:</source>
        <translation>Left:</translation>
    </message>
    <message>
        <source>Right:</source>
        <translation>Right:</translation>
    </message>
    <message>
        <source>identical source</source>
        <translation>identical source</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n change</numerusform>
            <numerusform>%n changes</numerusform>
        </translation>
    </message>
    <message>
        <source>change %1 of %2</source>
        <translation>change %1 of %2</translation>
    </message>
    <message>
        <source>Swap sides</source>
        <translation>Swap sides</translation>
    </message>
    <message>
        <source>Copy left source (#%1)</source>
        <translation>Copy left source (#%1)</translation>
    </message>
    <message>
        <source>Copy right source (#%1)</source>
        <translation>Copy right source (#%1)</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project: nothing copied.</source>
        <translation>Candidate #%1 is not in this project: nothing copied.</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>No candidate selected: select one in any view, or pick two candidates above.</source>
        <translation>No candidate selected: select one in any view, or pick two candidates above.</translation>
    </message>
    <message>
        <source>&lt;i&gt;no candidate on this side&lt;/i&gt;</source>
        <translation>&lt;i&gt;no candidate on this side&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation>Candidate #%1 is not in this project.</translation>
    </message>
    <message>
        <source>&lt;i&gt;#%1 not found&lt;/i&gt;</source>
        <translation>&lt;i&gt;#%1 not found&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Candidate #%1 has no parent (it is a %2): pick a candidate on the left to compare against.</source>
        <translation>Candidate #%1 has no parent (it is a %2): pick a candidate on the left to compare against.</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>seed</translation>
    </message>
</context>
<context>
    <name>crucible::views::FilteredTable</name>
    <message>
        <source>Filter…</source>
        <translation>Filter…</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>All statuses</translation>
    </message>
</context>
<context>
    <name>crucible::views::InspectionRunner</name>
    <message>
        <source>the compiler failed: %1</source>
        <translation>the compiler failed: %1</translation>
    </message>
    <message>
        <source>no SASS: the compiler failed</source>
        <translation>no SASS: the compiler failed</translation>
    </message>
</context>
<context>
    <name>crucible::views::KernelEditorView</name>
    <message>
        <source>Compiling...</source>
        <translation>Compiling...</translation>
    </message>
    <message>
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <source>SASS</source>
        <translation>SASS</translation>
    </message>
    <message>
        <source>Not compiled yet</source>
        <translation>Not compiled yet</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>Evaluate</translation>
    </message>
    <message>
        <source>Validate, time and profile this kernel on the GPU; the result joins the lineage</source>
        <translation>Validate, time and profile this kernel on the GPU; the result joins the lineage</translation>
    </message>
    <message>
        <source>Note for the candidate (what this edit tries)</source>
        <translation>Note for the candidate (what this edit tries)</translation>
    </message>
    <message>
        <source>Stored with the evaluated candidate</source>
        <translation>Stored with the evaluated candidate</translation>
    </message>
    <message>
        <source>No GPU here: kernels can be compiled and inspected, not evaluated</source>
        <translation>No GPU here: kernels can be compiled and inspected, not evaluated</translation>
    </message>
    <message>
        <source>The kernel&apos;s name: an extern &quot;C&quot; __global__ function of the source</source>
        <translation>The kernel&apos;s name: an extern &quot;C&quot; __global__ function of the source</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>Entry</translation>
    </message>
    <message>
        <source>grid.%1: an expression over the task&apos;s axes, e.g. ceil_div(M, 128)</source>
        <translation>grid.%1: an expression over the task&apos;s axes, e.g. ceil_div(M, 128)</translation>
    </message>
    <message>
        <source>block.%1: an expression over the task&apos;s axes</source>
        <translation>block.%1: an expression over the task&apos;s axes</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>Dynamic shared memory in bytes: an expression over the task&apos;s axes</source>
        <translation>Dynamic shared memory in bytes: an expression over the task&apos;s axes</translation>
    </message>
    <message>
        <source>Shared memory</source>
        <translation>Shared memory</translation>
    </message>
    <message>
        <source>Find in source (Ctrl+F, Enter for the next)</source>
        <translation>Find in source (Ctrl+F, Enter for the next)</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>Not found</translation>
    </message>
    <message>
        <source>Kernel editor: %1</source>
        <translation>Kernel editor: %1</translation>
    </message>
    <message>
        <source>Compiled for %1 in %2 s</source>
        <translation>Compiled for %1 in %2 s</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errors</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 registers, %2 B static shared memory, %3 B local memory per thread, %4 B spill stores, %5 B spill loads (%6)
PTX features: %7</source>
        <translation>%1 registers, %2 B static shared memory, %3 B local memory per thread, %4 B spill stores, %5 B spill loads (%6)
PTX features: %7</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>none found</translation>
    </message>
    <message>
        <source>No resource figures: the kernel did not compile</source>
        <translation>No resource figures: the kernel did not compile</translation>
    </message>
    <message>
        <source>No task: the signature is not checked</source>
        <translation>No task: the signature is not checked</translation>
    </message>
    <message>
        <source>The signature matches the task</source>
        <translation>The signature matches the task</translation>
    </message>
    <message>
        <source>Signature: %1</source>
        <translation>Signature: %1</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>line %1</translation>
    </message>
    <message>
        <source>(no line)</source>
        <translation>(no line)</translation>
    </message>
    <message>
        <source>signature: %1</source>
        <translation>signature: %1</translation>
    </message>
</context>
<context>
    <name>crucible::views::KnowledgeEditor</name>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
</context>
<context>
    <name>crucible::views::KnowledgeModel</name>
    <message>
        <source>Scope</source>
        <translation>Scope</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>Claim</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Decision</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>Effect</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Evidence</translation>
    </message>
    <message>
        <source>Observations</source>
        <translation>Observations</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>pinned</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>disabled</translation>
    </message>
    <message>
        <source>yours</source>
        <translation>yours</translation>
    </message>
    <message>
        <source>Measured: %1</source>
        <translation>Measured: %1</translation>
    </message>
</context>
<context>
    <name>crucible::views::KnowledgeView</name>
    <message>
        <source>Search claims, decisions and scopes (full text)</source>
        <translation>Search claims, decisions and scopes (full text)</translation>
    </message>
    <message>
        <source>Evidence (click to select):</source>
        <translation>Evidence (click to select):</translation>
    </message>
    <message>
        <source>Select candidate #%1</source>
        <translation>Select candidate #%1</translation>
    </message>
    <message>
        <source>Select candidate</source>
        <translation>Select candidate</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>Search: %1</source>
        <translation>Search: %1</translation>
    </message>
    <message>
        <source>The knowledge base is empty: claims appear as runs measure the effect of their decisions.</source>
        <translation>The knowledge base is empty: claims appear as runs measure the effect of their decisions.</translation>
    </message>
    <message>
        <source>No claim matches &quot;%1&quot;.</source>
        <translation>No claim matches &quot;%1&quot;.</translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s)</source>
        <translation>
            <numerusform>%n claim</numerusform>
            <numerusform>%n claims</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
    <message>
        <source>Scope: %1&lt;br&gt;</source>
        <translation>Scope: %1&lt;br&gt;</translation>
    </message>
    <message>
        <source>Supports the decision: &lt;tt&gt;%1&lt;/tt&gt;&lt;br&gt;</source>
        <translation>Supports the decision: &lt;tt&gt;%1&lt;/tt&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>Status: %1; measured effect %2× over %3 observation(s)</source>
        <translation>Status: %1; measured effect %2× over %3 observation(s)</translation>
    </message>
    <message>
        <source>&lt;br&gt;Certified by the hardware probe: %1</source>
        <translation>&lt;br&gt;Certified by the hardware probe: %1</translation>
    </message>
    <message>
        <source>&lt;br&gt;Updated %1</source>
        <translation>&lt;br&gt;Updated %1</translation>
    </message>
    <message>
        <source>No evidence candidates recorded.</source>
        <translation>No evidence candidates recorded.</translation>
    </message>
    <message>
        <source>run #%1 · %2</source>
        <translation>run #%1 · %2</translation>
    </message>
    <message>
        <source>#%1 (missing from the project)</source>
        <translation>#%1 (missing from the project)</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>Pin</translation>
    </message>
    <message>
        <source>Use this claim as validated whatever its statistics say (from the next run on)</source>
        <translation>Use this claim as validated whatever its statistics say (from the next run on)</translation>
    </message>
    <message>
        <source>Disable</source>
        <translation>Disable</translation>
    </message>
    <message>
        <source>Never use this claim (its statistics are still kept)</source>
        <translation>Never use this claim (its statistics are still kept)</translation>
    </message>
    <message>
        <source>Edit claim…</source>
        <translation>Edit claim…</translation>
    </message>
    <message>
        <source>Word the claim your way; its measurements stay as they are</source>
        <translation>Word the claim your way; its measurements stay as they are</translation>
    </message>
    <message>
        <source>Add claim…</source>
        <translation>Add claim…</translation>
    </message>
    <message>
        <source>Write a claim of your own: a hypothesis until evidence arrives, unless you pin it</source>
        <translation>Write a claim of your own: a hypothesis until evidence arrives, unless you pin it</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Not saved: %1</translation>
    </message>
    <message>
        <source>Edit claim</source>
        <translation>Edit claim</translation>
    </message>
    <message>
        <source>The claim in your words (empty: the measured wording):</source>
        <translation>The claim in your words (empty: the measured wording):</translation>
    </message>
    <message>
        <source>Measured: %1&lt;br&gt;</source>
        <translation>Measured: %1&lt;br&gt;</translation>
    </message>
    <message>
        <source>Pinned: runs use it as validated.&lt;br&gt;</source>
        <translation>Pinned: runs use it as validated.&lt;br&gt;</translation>
    </message>
    <message>
        <source>Disabled: runs never use it.&lt;br&gt;</source>
        <translation>Disabled: runs never use it.&lt;br&gt;</translation>
    </message>
    <message>
        <source>Added by you.&lt;br&gt;</source>
        <translation>Added by you.&lt;br&gt;</translation>
    </message>
</context>
<context>
    <name>crucible::views::LineageView</name>
    <message>
        <source>All candidates</source>
        <translation>All candidates</translation>
    </message>
    <message>
        <source>Only valid</source>
        <translation>Only valid</translation>
    </message>
    <message>
        <source>Only elites</source>
        <translation>Only elites</translation>
    </message>
    <message>
        <source>Find candidate #</source>
        <translation>Find candidate #</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Fit</translation>
    </message>
    <message>
        <source>Fit the whole lineage in view (%1)</source>
        <translation>Fit the whole lineage in view (%1)</translation>
    </message>
    <message>
        <source>&amp;#9632; reference</source>
        <translation>&amp;#9632; reference</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#d4a017&apos;&gt;&amp;#9711;&lt;/span&gt; sealed</source>
        <translation>&lt;span style=&apos;color:#d4a017&apos;&gt;&amp;#9711;&lt;/span&gt; sealed</translation>
    </message>
    <message>
        <source>&lt;b&gt;&amp;#9711;&lt;/b&gt; elite</source>
        <translation>&lt;b&gt;&amp;#9711;&lt;/b&gt; elite</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#e67800&apos;&gt;&amp;#9473;&lt;/span&gt; path to the best</source>
        <translation>&lt;span style=&apos;color:#e67800&apos;&gt;&amp;#9473;&lt;/span&gt; path to the best</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>This project has no runs yet: start one to grow a lineage.</source>
        <translation>This project has no runs yet: start one to grow a lineage.</translation>
    </message>
    <message>
        <source>All architectures</source>
        <translation>All architectures</translation>
    </message>
    <message>
        <source>No candidates in this run yet.</source>
        <translation>No candidates in this run yet.</translation>
    </message>
    <message>
        <source>No candidate of this run passes the filter (%1 candidates in the run).</source>
        <translation>No candidate of this run passes the filter (%1 candidates in the run).</translation>
    </message>
    <message>
        <source>%1 of %2 candidates shown</source>
        <translation>%1 of %2 candidates shown</translation>
    </message>
    <message>
        <source>Select #%1</source>
        <translation>Select #%1</translation>
    </message>
    <message>
        <source>Compare with parent</source>
        <translation>Compare with parent</translation>
    </message>
    <message>
        <source>Expand sub-tree</source>
        <translation>Expand sub-tree</translation>
    </message>
    <message>
        <source>Collapse sub-tree</source>
        <translation>Collapse sub-tree</translation>
    </message>
    <message>
        <source>Copy candidate id</source>
        <translation>Copy candidate id</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit</source>
        <translation>Fork &amp;&amp; edit</translation>
    </message>
    <message>
        <source>#%1 is hidden by the filter.</source>
        <translation>#%1 is hidden by the filter.</translation>
    </message>
    <message>
        <source>#%1 is not in this run.</source>
        <translation>#%1 is not in this run.</translation>
    </message>
    <message>
        <source>architecture: %1</source>
        <translation>architecture: %1</translation>
    </message>
    <message>
        <source>proposer: %1</source>
        <translation>proposer: %1</translation>
    </message>
    <message>
        <source>parents: %1</source>
        <translation>parents: %1</translation>
    </message>
    <message>
        <source>the run&apos;s reference</source>
        <translation>the run&apos;s reference</translation>
    </message>
    <message>
        <source>sealed</source>
        <translation>sealed</translation>
    </message>
    <message>
        <source>elite of an archive cell</source>
        <translation>elite of an archive cell</translation>
    </message>
    <message>
        <source>Compare the %1 marked candidates</source>
        <translation>Compare the %1 marked candidates</translation>
    </message>
</context>
<context>
    <name>crucible::views::LlmPreferencesDialog</name>
    <message>
        <source>Language models</source>
        <translation>Language models</translation>
    </message>
    <message>
        <source>OpenAI-compatible (OpenAI, vLLM, llama.cpp, Ollama, SGLang)</source>
        <translation>OpenAI-compatible (OpenAI, vLLM, llama.cpp, Ollama, SGLang)</translation>
    </message>
    <message>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <source>The name the key is filed under in the system keychain, and the environment variable crucible-cli reads it from. Empty: a server without keys.</source>
        <translation>The name the key is filed under in the system keychain, and the environment variable crucible-cli reads it from. Empty: a server without keys.</translation>
    </message>
    <message>
        <source>leave empty to keep the stored key</source>
        <translation>leave empty to keep the stored key</translation>
    </message>
    <message>
        <source>Stored in the system keychain only; never in the project or a settings file.</source>
        <translation>Stored in the system keychain only; never in the project or a settings file.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>USD / M input tokens</source>
        <translation>USD / M input tokens</translation>
    </message>
    <message>
        <source>USD / M output tokens</source>
        <translation>USD / M output tokens</translation>
    </message>
    <message>
        <source>Add model</source>
        <translation>Add model</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>Remove model</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpoint</translation>
    </message>
    <message>
        <source>Key name</source>
        <translation>Key name</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperature</translation>
    </message>
    <message>
        <source>Max tokens per reply</source>
        <translation>Max tokens per reply</translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation>Requests at once</translation>
    </message>
    <message>
        <source>Models (several: a bandit picks each proposal&apos;s, weighing improvement and cost)</source>
        <translation>Models (several: a bandit picks each proposal&apos;s, weighing improvement and cost)</translation>
    </message>
    <message>
        <source>Key name: a key needs a name to be filed under (e.g. OPENAI_API_KEY)</source>
        <translation>Key name: a key needs a name to be filed under (e.g. OPENAI_API_KEY)</translation>
    </message>
</context>
<context>
    <name>crucible::views::MainWindow</name>
    <message>
        <source>Compare with parent</source>
        <translation>Compare with parent</translation>
    </message>
    <message>
        <source>Show in lineage</source>
        <translation>Show in lineage</translation>
    </message>
    <message>
        <source>Copy candidate id</source>
        <translation>Copy candidate id</translation>
    </message>
    <message>
        <source>Copy source</source>
        <translation>Copy source</translation>
    </message>
    <message>
        <source>Save source as .cu…</source>
        <translation>Save source as .cu…</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit</source>
        <translation>Fork &amp;&amp; edit</translation>
    </message>
    <message>
        <source>Export kernel…</source>
        <translation>Export kernel…</translation>
    </message>
    <message>
        <source>Open or create a project first: a task is imported into a project.</source>
        <translation>Open or create a project first: a task is imported into a project.</translation>
    </message>
    <message>
        <source>Compare the %1 selected candidates</source>
        <translation>Compare the %1 selected candidates</translation>
    </message>
    <message>
        <source>Select two or more candidates (Ctrl- or Shift-click) to compare them</source>
        <translation>Select two or more candidates (Ctrl- or Shift-click) to compare them</translation>
    </message>
    <message>
        <source>The layout is back to its default.</source>
        <translation>The layout is back to its default.</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;New project…</source>
        <translation>&amp;New project…</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Open…</translation>
    </message>
    <message>
        <source>Recent projects</source>
        <translation>Recent projects</translation>
    </message>
    <message>
        <source>Open &amp;kernel…</source>
        <translation>Open &amp;kernel…</translation>
    </message>
    <message>
        <source>&amp;Export kernel…</source>
        <translation>&amp;Export kernel…</translation>
    </message>
    <message>
        <source>Write the selected candidate as a .cu with its launcher, a PyTorch extension or a FlashInfer solution (as crucible-cli best --export)</source>
        <translation>Write the selected candidate as a .cu with its launcher, a PyTorch extension or a FlashInfer solution (as crucible-cli best --export)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Edit</translation>
    </message>
    <message>
        <source>&amp;Fork &amp;&amp; edit</source>
        <translation>&amp;Fork &amp;&amp; edit</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copy</translation>
    </message>
    <message>
        <source>Copy the selected text, or the selected rows of a table as tab-separated text</source>
        <translation>Copy the selected text, or the selected rows of a table as tab-separated text</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Find…</translation>
    </message>
    <message>
        <source>Compare &amp;selected</source>
        <translation>Compare &amp;selected</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Preferences…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>&amp;Reset layout</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Keyboard shortcuts</translation>
    </message>
    <message>
        <source>&amp;About Crucible</source>
        <translation>&amp;About Crucible</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>About &amp;Qt</translation>
    </message>
    <message>
        <source>Set as baseline for details</source>
        <translation>Set as baseline for details</translation>
    </message>
    <message>
        <source>This build of the workbench has no kernel editor</source>
        <translation>This build of the workbench has no kernel editor</translation>
    </message>
    <message>
        <source>Open the selected candidate in the kernel editor, as a fork of it</source>
        <translation>Open the selected candidate in the kernel editor, as a fork of it</translation>
    </message>
    <message>
        <source>Select a candidate to fork</source>
        <translation>Select a candidate to fork</translation>
    </message>
    <message>
        <source>Open a .cu file in the kernel editor against the current run</source>
        <translation>Open a .cu file in the kernel editor against the current run</translation>
    </message>
    <message>
        <source>Open a project and select a run: a kernel joins a run</source>
        <translation>Open a project and select a run: a kernel joins a run</translation>
    </message>
    <message>
        <source>This build of the workbench has no kernel editor.</source>
        <translation>This build of the workbench has no kernel editor.</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation>Candidate #%1 is not in this project.</translation>
    </message>
    <message>
        <source>Fork of #%1 (%2, %3)</source>
        <translation>Fork of #%1 (%2, %3)</translation>
    </message>
    <message>
        <source>Open a project and select a run first: an opened kernel joins a run.</source>
        <translation>Open a project and select a run first: an opened kernel joins a run.</translation>
    </message>
    <message>
        <source>Cannot open the kernel: %1</source>
        <translation>Cannot open the kernel: %1</translation>
    </message>
    <message>
        <source>%1 is empty: there is no kernel to edit.</source>
        <translation>%1 is empty: there is no kernel to edit.</translation>
    </message>
    <message>
        <source>%1 (opened file, joins run %2)</source>
        <translation>%1 (opened file, joins run %2)</translation>
    </message>
    <message>
        <source>Open kernel</source>
        <translation>Open kernel</translation>
    </message>
    <message>
        <source>CUDA source (*.cu *.cuh);;All files (*)</source>
        <translation>CUDA source (*.cu *.cuh);;All files (*)</translation>
    </message>
    <message>
        <source>Cannot open kernel</source>
        <translation>Cannot open kernel</translation>
    </message>
    <message>
        <source>Discard your edits?</source>
        <translation>Discard your edits?</translation>
    </message>
    <message>
        <source>The kernel editor holds edits that were not evaluated. Open another kernel and discard them?</source>
        <translation>The kernel editor holds edits that were not evaluated. Open another kernel and discard them?</translation>
    </message>
    <message>
        <source>Kept your edits in the kernel editor.</source>
        <translation>Kept your edits in the kernel editor.</translation>
    </message>
    <message>
        <source>(unknown task)</source>
        <translation>(unknown task)</translation>
    </message>
    <message>
        <source>Save source of #%1</source>
        <translation>Save source of #%1</translation>
    </message>
    <message>
        <source>CUDA source (*.cu)</source>
        <translation>CUDA source (*.cu)</translation>
    </message>
    <message>
        <source>Cannot save source</source>
        <translation>Cannot save source</translation>
    </message>
    <message>
        <source>Saved the source of #%1 to %2.</source>
        <translation>Saved the source of #%1 to %2.</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>Clear list</translation>
    </message>
    <message>
        <source>%1 — Crucible</source>
        <translation>%1 — Crucible</translation>
    </message>
    <message>
        <source>Crucible</source>
        <translation>Crucible</translation>
    </message>
    <message>
        <source>Cannot open %1: no such file.</source>
        <translation>Cannot open %1: no such file.</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>Cannot open %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>Opened %1: %n run(s).</source>
        <translation>
            <numerusform>Opened %1: %n run.</numerusform>
            <numerusform>Opened %1: %n runs.</numerusform>
        </translation>
    </message>
    <message>
        <source>Read-only: %1.</source>
        <translation>Read-only: %1.</translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation>Cannot open project</translation>
    </message>
    <message>
        <source>%1 is not a project Crucible can open.</source>
        <translation>%1 is not a project Crucible can open.</translation>
    </message>
    <message>
        <source>New project</source>
        <translation>New project</translation>
    </message>
    <message>
        <source>Crucible projects (*.crucible)</source>
        <translation>Crucible projects (*.crucible)</translation>
    </message>
    <message>
        <source>Cannot create project</source>
        <translation>Cannot create project</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>Open project</translation>
    </message>
    <message>
        <source>Crucible projects (*.crucible);;All files (*)</source>
        <translation>Crucible projects (*.crucible);;All files (*)</translation>
    </message>
    <message>
        <source>About Crucible</source>
        <translation>About Crucible</translation>
    </message>
    <message>
        <source>Nothing selected to copy.</source>
        <translation>Nothing selected to copy.</translation>
    </message>
    <message>
        <source>No project is open.</source>
        <translation>No project is open.</translation>
    </message>
    <message>
        <source>A run is in progress: export once it has stopped.</source>
        <translation>A run is in progress: export once it has stopped.</translation>
    </message>
    <message>
        <source>Candidate #%1 is %2: only a valid kernel is exported.</source>
        <translation>Candidate #%1 is %2: only a valid kernel is exported.</translation>
    </message>
    <message>
        <source>The task of candidate #%1 is not in this project.</source>
        <translation>The task of candidate #%1 is not in this project.</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>Cannot create the folder %1.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
    <message>
        <source>Cannot export candidate #%1: %2</source>
        <translation>Cannot export candidate #%1: %2</translation>
    </message>
    <message>
        <source>cu — the kernel with its host launcher and launch rule</source>
        <translation>cu — the kernel with its host launcher and launch rule</translation>
    </message>
    <message>
        <source>torch — a PyTorch extension, and the task&apos;s baseline to compare</source>
        <translation>torch — a PyTorch extension, and the task&apos;s baseline to compare</translation>
    </message>
    <message>
        <source>flashinfer — a FlashInfer-Trace solution</source>
        <translation>flashinfer — a FlashInfer-Trace solution</translation>
    </message>
    <message>
        <source>Export kernel #%1</source>
        <translation>Export kernel #%1</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Format:</translation>
    </message>
    <message>
        <source>Export kernel #%1 into</source>
        <translation>Export kernel #%1 into</translation>
    </message>
    <message>
        <source>Cannot export kernel</source>
        <translation>Cannot export kernel</translation>
    </message>
    <message>
        <source>Exported #%1: %2</source>
        <translation>Exported #%1: %2</translation>
    </message>
</context>
<context>
    <name>crucible::views::ReviewQueueModel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>Generation</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>Architecture</translation>
    </message>
    <message>
        <source>Proposer</source>
        <translation>Proposer</translation>
    </message>
    <message>
        <source>Mutation</source>
        <translation>Mutation</translation>
    </message>
</context>
<context>
    <name>crucible::views::ReviewQueueView</name>
    <message>
        <source>Proposal</source>
        <translation>Proposal</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Diff against parent</source>
        <translation>Diff against parent</translation>
    </message>
    <message>
        <source>Note for the verdict (why)</source>
        <translation>Note for the verdict (why)</translation>
    </message>
    <message>
        <source>Accept architecture</source>
        <translation>Accept architecture</translation>
    </message>
    <message>
        <source>Reject architecture</source>
        <translation>Reject architecture</translation>
    </message>
    <message>
        <source>Ctrl+Return</source>
        <translation>Ctrl+Return</translation>
    </message>
    <message>
        <source>Ctrl+Backspace</source>
        <translation>Ctrl+Backspace</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit</source>
        <translation>Fork &amp;&amp; edit</translation>
    </message>
    <message>
        <source>Open this proposal in the kernel editor, as a fork of it</source>
        <translation>Open this proposal in the kernel editor, as a fork of it</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation>This project has no runs yet.</translation>
    </message>
    <message>
        <source>This run is not gated: new architectures are evaluated without review.</source>
        <translation>This run is not gated: new architectures are evaluated without review.</translation>
    </message>
    <message>
        <source>No candidates awaiting review in this run.</source>
        <translation>No candidates awaiting review in this run.</translation>
    </message>
    <message>
        <source>architecture: %1 (%2)</source>
        <translation>architecture: %1 (%2)</translation>
    </message>
    <message>
        <source>architecture: %1</source>
        <translation>architecture: %1</translation>
    </message>
    <message>
        <source>Architecture: %1

%2

No code yet: the model writes it once the architecture is accepted.

Proposer: %3
Mutation: %4
</source>
        <translation>Architecture: %1

%2

No code yet: the model writes it once the architecture is accepted.

Proposer: %3
Mutation: %4
</translation>
    </message>
    <message>
        <source>Genome
%1
Descriptor
%2

Proposer: %3
Mutation: %4
</source>
        <translation>Genome
%1
Descriptor
%2

Proposer: %3
Mutation: %4
</translation>
    </message>
    <message>
        <source>Diff (no parent)</source>
        <translation>Diff (no parent)</translation>
    </message>
    <message>
        <source>Diff against #%1</source>
        <translation>Diff against #%1</translation>
    </message>
</context>
<context>
    <name>crucible::views::RooflineView</name>
    <message>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>Bandwidth</translation>
    </message>
    <message>
        <source>Roofline: FLOP/s over arithmetic intensity. Bandwidth: DRAM and L2 traffic as a share of the measured roofs (for tasks with no FLOPs).</source>
        <translation>Roofline: FLOP/s over arithmetic intensity. Bandwidth: DRAM and L2 traffic as a share of the measured roofs (for tasks with no FLOPs).</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Reset zoom</translation>
    </message>
    <message>
        <source>Wheel: zoom; drag: pan; double-click: reset</source>
        <translation>Wheel: zoom; drag: pan; double-click: reset</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>Export</translation>
    </message>
    <message>
        <source>PNG image…</source>
        <translation>PNG image…</translation>
    </message>
    <message>
        <source>SVG image…</source>
        <translation>SVG image…</translation>
    </message>
    <message>
        <source>Export roofline</source>
        <translation>Export roofline</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG image (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG image (*.svg)</translation>
    </message>
    <message>
        <source>The task&apos;s flops formula is unusable (%1).</source>
        <translation>The task&apos;s flops formula is unusable (%1).</translation>
    </message>
    <message>
        <source>%1 of %2 valid candidates plotted; not plotted: %3.</source>
        <translation>%1 of %2 valid candidates plotted; not plotted: %3.</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation>This project has no runs yet.</translation>
    </message>
    <message>
        <source>No profiled candidates in this run yet.</source>
        <translation>No profiled candidates in this run yet.</translation>
    </message>
    <message>
        <source>This task does no floating-point work: the bandwidth view shows its kernels.</source>
        <translation>This task does no floating-point work: the bandwidth view shows its kernels.</translation>
    </message>
    <message>
        <source>No measured ceilings in this project: the roofs appear once the device&apos;s ceilings are measured.</source>
        <translation>No measured ceilings in this project: the roofs appear once the device&apos;s ceilings are measured.</translation>
    </message>
    <message>
        <source>Roofs measured on %1.</source>
        <translation>Roofs measured on %1.</translation>
    </message>
    <message>
        <source>Arithmetic intensity (FLOP per DRAM byte)</source>
        <translation>Arithmetic intensity (FLOP per DRAM byte)</translation>
    </message>
    <message>
        <source>Achieved %1FLOP/s</source>
        <translation>Achieved %1FLOP/s</translation>
    </message>
    <message>
        <source>#%1 · gen %2 · %3 · %4 at %5 FLOP/B</source>
        <translation>#%1 · gen %2 · %3 · %4 at %5 FLOP/B</translation>
    </message>
    <message>
        <source>Bandwidth: share of the measured roofs</source>
        <translation>Bandwidth: share of the measured roofs</translation>
    </message>
    <message>
        <source>Bandwidth achieved</source>
        <translation>Bandwidth achieved</translation>
    </message>
    <message>
        <source>#%1 · gen %2 · %3 · %4 %5</source>
        <translation>#%1 · gen %2 · %3 · %4 %5</translation>
    </message>
    <message>
        <source> (%1% of the roof)</source>
        <translation> (%1% of the roof)</translation>
    </message>
    <message>
        <source>DRAM</source>
        <translation>DRAM</translation>
    </message>
    <message>
        <source>L2</source>
        <translation>L2</translation>
    </message>
    <message>
        <source>Median time (µs)</source>
        <translation>Median time (µs)</translation>
    </message>
    <message>
        <source>% of the measured roof</source>
        <translation>% of the measured roof</translation>
    </message>
    <message>
        <source>Achieved %1B/s</source>
        <translation>Achieved %1B/s</translation>
    </message>
    <message>
        <source>100% of the roof</source>
        <translation>100% of the roof</translation>
    </message>
    <message>
        <source>generation %1</source>
        <translation>generation %1</translation>
    </message>
    <message>
        <source>generations %1–%2</source>
        <translation>generations %1–%2</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>reference</translation>
    </message>
    <message>
        <source>sealed</source>
        <translation>sealed</translation>
    </message>
    <message>
        <source>selected</source>
        <translation>selected</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) here:</source>
        <translation>
            <numerusform>%n point here:</numerusform>
            <numerusform>%n points here:</numerusform>
        </translation>
    </message>
    <message>
        <source> · the run&apos;s reference</source>
        <translation> · the run&apos;s reference</translation>
    </message>
    <message>
        <source> · sealed</source>
        <translation> · sealed</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… and %1 more</translation>
    </message>
    <message>
        <source>#%1 · generation %2</source>
        <translation>#%1 · generation %2</translation>
    </message>
    <message>
        <source>%1 at %2 FLOP/B</source>
        <translation>%1 at %2 FLOP/B</translation>
    </message>
    <message>
        <source>%1 FLOPs (%2), %3 DRAM bytes, median %4</source>
        <translation>%1 FLOPs (%2), %3 DRAM bytes, median %4</translation>
    </message>
    <message>
        <source>SASS counters</source>
        <translation>SASS counters</translation>
    </message>
    <message>
        <source>task formula</source>
        <translation>task formula</translation>
    </message>
    <message>
        <source>%1% of the DRAM roof here</source>
        <translation>%1% of the DRAM roof here</translation>
    </message>
    <message>
        <source>the run&apos;s reference</source>
        <translation>the run&apos;s reference</translation>
    </message>
    <message>
        <source>Crucible roofline</source>
        <translation>Crucible roofline</translation>
    </message>
    <message>
        <source>
Cannot write %1.</source>
        <translation>
Cannot write %1.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>a count of candidates, then why they are not plotted</comment>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>crucible::views::RunControlView</name>
    <message>
        <source>no limit</source>
        <translation>no limit</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Review new architectures</source>
        <translation>Review new architectures</translation>
    </message>
    <message>
        <source>Review new architectures before evaluating them</source>
        <translation>Review new architectures before evaluating them</translation>
    </message>
    <message>
        <source>Your own kernels, evaluated first and then tuned; several may compete in one run.
Each needs a launch rule: K.tune.json beside K.cu, a /* crucible-tune {...} */ comment in it, or a tune file (resources/tasks/README.md, &quot;Tunable kernels&quot;).</source>
        <translation>Your own kernels, evaluated first and then tuned; several may compete in one run.
Each needs a launch rule: K.tune.json beside K.cu, a /* crucible-tune {...} */ comment in it, or a tune file (resources/tasks/README.md, &quot;Tunable kernels&quot;).</translation>
    </message>
    <message>
        <source>Add starting kernel...</source>
        <translation>Add starting kernel...</translation>
    </message>
    <message>
        <source>Tune file...</source>
        <translation>Tune file...</translation>
    </message>
    <message>
        <source>Choose the selected kernel&apos;s tune file (parameters, restrictions, launch rule)</source>
        <translation>Choose the selected kernel&apos;s tune file (parameters, restrictions, launch rule)</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>Task:</translation>
    </message>
    <message>
        <source>Proposer:</source>
        <translation>Proposer:</translation>
    </message>
    <message>
        <source>Evaluations:</source>
        <translation>Evaluations:</translation>
    </message>
    <message>
        <source>Wall time:</source>
        <translation>Wall time:</translation>
    </message>
    <message>
        <source>GPU time:</source>
        <translation>GPU time:</translation>
    </message>
    <message>
        <source>Starting kernels:</source>
        <translation>Starting kernels:</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Resume</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Best speedup over evaluations</source>
        <translation>Best speedup over evaluations</translation>
    </message>
    <message>
        <source>evaluations</source>
        <translation>evaluations</translation>
    </message>
    <message>
        <source>best speedup (×)</source>
        <translation>best speedup (×)</translation>
    </message>
    <message>
        <source>%1 cannot be chosen: %2</source>
        <translation>%1 cannot be chosen: %2</translation>
    </message>
    <message>
        <source>%1 cannot be chosen: %2 %3</source>
        <translation>%1 cannot be chosen: %2 %3</translation>
    </message>
    <message>
        <source> with %1</source>
        <translation> with %1</translation>
    </message>
    <message>
        <source>%1: checking...</source>
        <translation>%1: checking...</translation>
    </message>
    <message>
        <source>%1: fits the task</source>
        <translation>%1: fits the task</translation>
    </message>
    <message>
        <source>%1: does not fit: %2</source>
        <translation>%1: does not fit: %2</translation>
    </message>
    <message>
        <source>Add starting kernel</source>
        <translation>Add starting kernel</translation>
    </message>
    <message>
        <source>CUDA kernels (*.cu *.cuh);;All files (*)</source>
        <translation>CUDA kernels (*.cu *.cuh);;All files (*)</translation>
    </message>
    <message>
        <source>Tune file of %1</source>
        <translation>Tune file of %1</translation>
    </message>
    <message>
        <source>Tune files (*.json);;All files (*)</source>
        <translation>Tune files (*.json);;All files (*)</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>This project has no tasks: add a task before starting a run.</source>
        <translation>This project has no tasks: add a task before starting a run.</translation>
    </message>
    <message>
        <source>No proposer is available.</source>
        <translation>No proposer is available.</translation>
    </message>
    <message>
        <source>A run is in progress: stop it first.</source>
        <translation>A run is in progress: stop it first.</translation>
    </message>
    <message>
        <source>Starting kernels cannot be checked here.</source>
        <translation>Starting kernels cannot be checked here.</translation>
    </message>
    <message>
        <source>Checking the starting kernels against the task...</source>
        <translation>Checking the starting kernels against the task...</translation>
    </message>
    <message>
        <source>Starting kernel &apos;%1&apos; cannot start this run: %2</source>
        <translation>Starting kernel &apos;%1&apos; cannot start this run: %2</translation>
    </message>
    <message>
        <source>%1 (built-in)</source>
        <translation>%1 (built-in)</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>No run yet.</translation>
    </message>
    <message>
        <source>%1 of %2 evaluations</source>
        <translation>%1 of %2 evaluations</translation>
    </message>
    <message>
        <source>%1 evaluations</source>
        <translation>%1 evaluations</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>best %1</translation>
    </message>
    <message>
        <source>no valid candidate yet</source>
        <translation>no valid candidate yet</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>%1 left</translation>
    </message>
    <message>
        <source>Add a kernel of your own (.cu) to the run</source>
        <translation>Add a kernel of your own (.cu) to the run</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>Reference kernel...</source>
        <translation>Reference kernel...</translation>
    </message>
    <message>
        <source>Task&apos;s reference</source>
        <translation>Task&apos;s reference</translation>
    </message>
    <message>
        <source>Measure the run against the task&apos;s latest seal, or its baseline when it has none</source>
        <translation>Measure the run against the task&apos;s latest seal, or its baseline when it has none</translation>
    </message>
    <message>
        <source>Reference:</source>
        <translation>Reference:</translation>
    </message>
    <message>
        <source>the chosen task&apos;s spec is not known here</source>
        <translation>the chosen task&apos;s spec is not known here</translation>
    </message>
    <message>
        <source>The task&apos;s latest seal, or its baseline when it has none</source>
        <translation>The task&apos;s latest seal, or its baseline when it has none</translation>
    </message>
    <message>
        <source>%1: fits the task; validated before the run measures against it</source>
        <translation>%1: fits the task; validated before the run measures against it</translation>
    </message>
    <message>
        <source>Reference kernel</source>
        <translation>Reference kernel</translation>
    </message>
    <message>
        <source>A reference kernel cannot be checked here.</source>
        <translation>A reference kernel cannot be checked here.</translation>
    </message>
    <message>
        <source>Checking the reference kernel against the task...</source>
        <translation>Checking the reference kernel against the task...</translation>
    </message>
    <message>
        <source>Reference kernel &apos;%1&apos; cannot be this run&apos;s reference: %2</source>
        <translation>Reference kernel &apos;%1&apos; cannot be this run&apos;s reference: %2</translation>
    </message>
    <message>
        <source>Measure the run against a kernel of your own (.cu with its launch rule, as a starting kernel) instead of the task&apos;s seal or baseline</source>
        <translation>Measure the run against a kernel of your own (.cu with its launch rule, as a starting kernel) instead of the task&apos;s seal or baseline</translation>
    </message>
</context>
<context>
    <name>crucible::views::RunsModel</name>
    <message>
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Task</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Proposer</source>
        <translation>Proposer</translation>
    </message>
    <message>
        <source>Evaluations</source>
        <translation>Evaluations</translation>
    </message>
    <message>
        <source>Best speedup</source>
        <translation>Best speedup</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Created</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
</context>
<context>
    <name>crucible::views::SealModel</name>
    <message>
        <source>task #%1</source>
        <translation>task #%1</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Task</translation>
    </message>
    <message>
        <source>Candidate</source>
        <translation>Candidate</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Sealed</source>
        <translation>Sealed</translation>
    </message>
    <message>
        <source>Timed again when the kernel was sealed (extended validation), beside the reference; the candidate&apos;s own evaluation (table, diff, details) was a separate measurement and can differ by a few per cent.</source>
        <translation>Timed again when the kernel was sealed (extended validation), beside the reference; the candidate&apos;s own evaluation (table, diff, details) was a separate measurement and can differ by a few per cent.</translation>
    </message>
    <message>
        <source>Speedup at seal</source>
        <translation>Speedup at seal</translation>
    </message>
    <message>
        <source>Median at seal</source>
        <translation>Median at seal</translation>
    </message>
</context>
<context>
    <name>crucible::views::ShortcutsDialog</name>
    <message>
        <source>anywhere in the window</source>
        <translation>anywhere in the window</translation>
    </message>
    <message>
        <source>where its view has focus</source>
        <translation>where its view has focus</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Keyboard shortcuts</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Action</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Shortcut</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Where</translation>
    </message>
</context>
<context>
    <name>crucible::views::SourceFile</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
</context>
<context>
    <name>crucible::views::TableColumns</name>
    <message>
        <source>Fit columns to contents</source>
        <translation>Fit columns to contents</translation>
    </message>
    <message>
        <source>Reset columns</source>
        <translation>Reset columns</translation>
    </message>
</context>
<context>
    <name>crucible::views::TimingPlot</name>
    <message>
        <source>: no timing samples stored</source>
        <translation>: no timing samples stored</translation>
    </message>
    <message numerus="yes">
        <source>: %n sample(s), min %1, quartiles %2 / %3 / %4, max %5</source>
        <translation>
            <numerusform>: %n sample, min %1, quartiles %2 / %3 / %4, max %5</numerusform>
            <numerusform>: %n samples, min %1, quartiles %2 / %3 / %4, max %5</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s) left of the axis, down to %1</source>
        <translation>
            <numerusform>%n sample left of the axis, down to %1</numerusform>
            <numerusform>%n samples left of the axis, down to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s) right of the axis, up to %1</source>
        <translation>
            <numerusform>%n sample right of the axis, up to %1</numerusform>
            <numerusform>%n samples right of the axis, up to %1</numerusform>
        </translation>
    </message>
    <message>
        <source>No timing samples stored.</source>
        <translation>No timing samples stored.</translation>
    </message>
    <message>
        <source>no samples stored</source>
        <translation>no samples stored</translation>
    </message>
</context>
<context>
    <name>crucible::views::VaultView</name>
    <message>
        <source>Validation report</source>
        <translation>Validation report</translation>
    </message>
    <message>
        <source>Performance report</source>
        <translation>Performance report</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Source</translation>
    </message>
    <message>
        <source>Validated again</source>
        <translation>Validated again</translation>
    </message>
    <message>
        <source>Export .cu…</source>
        <translation>Export .cu…</translation>
    </message>
    <message>
        <source>Validate again on this GPU</source>
        <translation>Validate again on this GPU</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>No project open.</translation>
    </message>
    <message>
        <source>No sealed kernels yet: a candidate is sealed when it passes correctness and performance validation.</source>
        <translation>No sealed kernels yet: a candidate is sealed when it passes correctness and performance validation.</translation>
    </message>
    <message>
        <source>Seal #%1: candidate #%2 of run #%3, sealed %4
Measured on %5 (%6), driver %7, CUDA runtime %8, NVRTC %9, SM %10 MHz, memory %11 MHz%12</source>
        <translation>Seal #%1: candidate #%2 of run #%3, sealed %4
Measured on %5 (%6), driver %7, CUDA runtime %8, NVRTC %9, SM %10 MHz, memory %11 MHz%12</translation>
    </message>
    <message>
        <source>, host %1</source>
        <translation>, host %1</translation>
    </message>
    <message>
        <source>// The sealed candidate #%1 is missing from the project.</source>
        <translation>// The sealed candidate #%1 is missing from the project.</translation>
    </message>
    <message>
        <source>%1 %2, here %3</source>
        <translation>%1 %2, here %3</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>driver</source>
        <translation>driver</translation>
    </message>
    <message>
        <source>CUDA runtime</source>
        <translation>CUDA runtime</translation>
    </message>
    <message>
        <source>Select a seal</source>
        <translation>Select a seal</translation>
    </message>
    <message>
        <source>Finding out which GPU this machine has…</source>
        <translation>Finding out which GPU this machine has…</translation>
    </message>
    <message>
        <source>The figures above were measured on the hardware named in the fingerprint.</source>
        <translation>The figures above were measured on the hardware named in the fingerprint.</translation>
    </message>
    <message>
        <source>Measured on this machine&apos;s hardware (GPU, driver and CUDA as here).</source>
        <translation>Measured on this machine&apos;s hardware (GPU, driver and CUDA as here).</translation>
    </message>
    <message>
        <source>This seal was measured on this GPU, driver and CUDA: its figures hold here.</source>
        <translation>This seal was measured on this GPU, driver and CUDA: its figures hold here.</translation>
    </message>
    <message>
        <source>Measured on other hardware than this machine&apos;s: %1.</source>
        <translation>Measured on other hardware than this machine&apos;s: %1.</translation>
    </message>
    <message>
        <source>Validate, time and profile the sealed kernel on this GPU; the new figures are kept beside the sealed ones</source>
        <translation>Validate, time and profile the sealed kernel on this GPU; the new figures are kept beside the sealed ones</translation>
    </message>
    <message>
        <source>not timed</source>
        <translation>not timed</translation>
    </message>
    <message>
        <source>%1 us, %2x the reference</source>
        <translation>%1 us, %2x the reference</translation>
    </message>
    <message>
        <source>Sealed %1 on %2 (%3), driver %4, CUDA %5: %6</source>
        <translation>Sealed %1 on %2 (%3), driver %4, CUDA %5: %6</translation>
    </message>
    <message>
        <source>Not validated again on other hardware yet.</source>
        <translation>Not validated again on other hardware yet.</translation>
    </message>
    <message>
        <source>Again %1 on %2 (%3), driver %4, CUDA %5: %6, %7 (candidate #%8)</source>
        <translation>Again %1 on %2 (%3), driver %4, CUDA %5: %6, %7 (candidate #%8)</translation>
    </message>
    <message>
        <source>Select the seal first: its kernel is read off the GUI thread while a run is in progress.</source>
        <translation>Select the seal first: its kernel is read off the GUI thread while a run is in progress.</translation>
    </message>
    <message>
        <source>The sealed candidate #%1 is missing from the project.</source>
        <translation>The sealed candidate #%1 is missing from the project.</translation>
    </message>
    <message>
        <source>Copy source</source>
        <translation>Copy source</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit</source>
        <translation>Fork &amp;&amp; edit</translation>
    </message>
    <message>
        <source>Export kernel (.cu, PyTorch, FlashInfer)…</source>
        <translation>Export kernel (.cu, PyTorch, FlashInfer)…</translation>
    </message>
    <message>
        <source>Export sealed kernel</source>
        <translation>Export sealed kernel</translation>
    </message>
    <message>
        <source>CUDA source (*.cu)</source>
        <translation>CUDA source (*.cu)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export failed</translation>
    </message>
    <message>
        <source>Copy failed</source>
        <translation>Copy failed</translation>
    </message>
    <message>
        <source>Seal #%1 is not in this project.</source>
        <translation>Seal #%1 is not in this project.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
</context>
<context>
    <name>crucible::views::ViewDocks</name>
    <message>
        <source>Run control</source>
        <translation>Run control</translation>
    </message>
    <message>
        <source>Lineage</source>
        <translation>Lineage</translation>
    </message>
    <message>
        <source>Archive map</source>
        <translation>Archive map</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>Diff</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>Roofline</translation>
    </message>
    <message>
        <source>Review queue</source>
        <translation>Review queue</translation>
    </message>
    <message>
        <source>Knowledge</source>
        <translation>Knowledge</translation>
    </message>
    <message>
        <source>Vault</source>
        <translation>Vault</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>Details</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Compare</translation>
    </message>
    <message>
        <source>Kernel editor</source>
        <translation>Kernel editor</translation>
    </message>
</context>
<context>
    <name>crucible::views::WelcomePage</name>
    <message>
        <source>&lt;h2&gt;Crucible&lt;/h2&gt;&lt;p&gt;Evolve, validate and seal GPU kernels.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Crucible&lt;/h2&gt;&lt;p&gt;Evolve, validate and seal GPU kernels.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Open project…</source>
        <translation>Open project…</translation>
    </message>
    <message>
        <source>New project…</source>
        <translation>New project…</translation>
    </message>
    <message>
        <source>Open the sample project</source>
        <translation>Open the sample project</translation>
    </message>
    <message>
        <source>Import a task…</source>
        <translation>Import a task…</translation>
    </message>
    <message>
        <source>Add a task spec (.json) to a project: opens or creates one first when none is open</source>
        <translation>Add a task spec (.json) to a project: opens or creates one first when none is open</translation>
    </message>
    <message>
        <source>Recent projects:</source>
        <translation>Recent projects:</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>(none yet)</translation>
    </message>
    <message>
        <source>This installation has no sample project</source>
        <translation>This installation has no sample project</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>A workbench that evolves GPU kernels.</source>
        <translation>A workbench that evolves GPU kernels.</translation>
    </message>
    <message>
        <source>Print the version and exit.</source>
        <translation>Print the version and exit.</translation>
    </message>
    <message>
        <source>Open PROJECT, render the main window to the PNG &lt;file&gt; and exit.</source>
        <translation>Open PROJECT, render the main window to the PNG &lt;file&gt; and exit.</translation>
    </message>
    <message>
        <source>The project file (.crucible) to open.</source>
        <translation>The project file (.crucible) to open.</translation>
    </message>
    <message>
        <source>With --screenshot: render only the view &lt;name&gt; (lineage, diff, roofline, knowledge, archive, runcontrol, review, vault, editor, details, compare), with the best valid candidate of the newest run selected (editor: forked into the kernel editor and compiled; details: every figure against its parent or the reference; compare: the two side by side).</source>
        <translation>With --screenshot: render only the view &lt;name&gt; (lineage, diff, roofline, knowledge, archive, runcontrol, review, vault, editor, details, compare), with the best valid candidate of the newest run selected (editor: forked into the kernel editor and compiled; details: every figure against its parent or the reference; compare: the two side by side).</translation>
    </message>
    <message>
        <source>With --screenshot: show run &lt;id&gt; instead of the newest run.</source>
        <translation>With --screenshot: show run &lt;id&gt; instead of the newest run.</translation>
    </message>
    <message>
        <source>With --screenshot: render at &lt;WxH&gt; pixels (e.g. 1366x768, 1920x1080) instead of 1600x1000 (the window) or 1400x900 (a view).</source>
        <translation>With --screenshot: render at &lt;WxH&gt; pixels (e.g. 1366x768, 1920x1080) instead of 1600x1000 (the window) or 1400x900 (a view).</translation>
    </message>
    <message>
        <source>this window has no kernel editor</source>
        <translation>this window has no kernel editor</translation>
    </message>
    <message>
        <source>the run has no valid candidate to open in the editor</source>
        <translation>the run has no valid candidate to open in the editor</translation>
    </message>
    <message>
        <source>the editor&apos;s compile of candidate #%1 did not finish within %2 s</source>
        <translation>the editor&apos;s compile of candidate #%1 did not finish within %2 s</translation>
    </message>
    <message>
        <source>this window has no details view</source>
        <translation>this window has no details view</translation>
    </message>
    <message>
        <source>the run has no valid candidate with a parent or a reference to compare it with</source>
        <translation>the run has no valid candidate with a parent or a reference to compare it with</translation>
    </message>
    <message>
        <source>no view named &quot;%1&quot; in this build; the views are: %2</source>
        <translation>no view named &quot;%1&quot; in this build; the views are: %2</translation>
    </message>
</context>
</TS>
