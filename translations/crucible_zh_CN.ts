<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
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
        <translation>无描述符</translation>
    </message>
    <message>
        <source>TMA maps %1</source>
        <translation>TMA 映射 %1</translation>
    </message>
    <message>
        <source>#%1 · generation %2 · %3</source>
        <translation>#%1 · 第 %2 代 · %3</translation>
    </message>
    <message>
        <source>%1 median (IQR %2)</source>
        <translation>中位数 %1（IQR %2）</translation>
    </message>
    <message>
        <source>%1 the reference</source>
        <translation>参考实现的 %1</translation>
    </message>
    <message>
        <source>not timed</source>
        <translation>未计时</translation>
    </message>
    <message>
        <source>%1 registers</source>
        <translation>%1 个寄存器</translation>
    </message>
    <message>
        <source>%1 B static smem</source>
        <translation>%1 B 静态共享内存</translation>
    </message>
    <message>
        <source>dynamic smem %1</source>
        <translation>动态共享内存 %1</translation>
    </message>
    <message>
        <source>spills %1/%2 B</source>
        <translation>溢出 %1/%2 B</translation>
    </message>
    <message>
        <source>compile failed</source>
        <translation>编译失败</translation>
    </message>
    <message>
        <source>not compiled</source>
        <translation>未编译</translation>
    </message>
    <message>
        <source>%1 median</source>
        <translation>中位数 %1</translation>
    </message>
</context>
<context>
    <name>DetailNotes</name>
    <message>
        <source>not profiled</source>
        <translation>未剖析</translation>
    </message>
    <message>
        <source>the profile lacks %1</source>
        <translation>剖析数据中缺少 %1</translation>
    </message>
    <message>
        <source>the profile lacks %1 or %2</source>
        <translation>剖析数据中缺少 %1 或 %2</translation>
    </message>
    <message>
        <source>the profile lacks the SASS fadd/fmul/ffma counters</source>
        <translation>剖析数据中缺少 SASS fadd/fmul/ffma 计数器</translation>
    </message>
    <message>
        <source>not stored: the profile has no bf16/fp16 tensor-path counters</source>
        <translation>未保存：剖析数据中没有 bf16/fp16 张量核心通路的计数器</translation>
    </message>
    <message>
        <source>not timed</source>
        <translation>未计时</translation>
    </message>
    <message>
        <source>no ceilings measured in this project</source>
        <translation>此项目中没有实测的峰值上限</translation>
    </message>
    <message>
        <source>ceilings of several GPUs are stored and the GPU this candidate ran on is not</source>
        <translation>项目保存了多块 GPU 的峰值上限，但未记录此候选运行所用的 GPU</translation>
    </message>
    <message>
        <source>no %1 ceiling measured on %2</source>
        <translation>未在 %2 上测得 %1 峰值上限</translation>
    </message>
    <message>
        <source>the task&apos;s spec is not stored</source>
        <translation>未保存任务规格</translation>
    </message>
    <message>
        <source>the task&apos;s spec does not parse: %1</source>
        <translation>任务规格无法解析：%1</translation>
    </message>
    <message>
        <source>the task&apos;s %1 formula does not evaluate: %2</source>
        <translation>任务的 %1 公式无法求值：%2</translation>
    </message>
    <message>
        <source>the task has no %1 formula</source>
        <translation>任务没有 %1 公式</translation>
    </message>
    <message>
        <source>the block size does not evaluate: %1</source>
        <translation>线程块大小无法求值：%1</translation>
    </message>
    <message>
        <source>does not evaluate at the task&apos;s axes: %1</source>
        <translation>在任务的维度取值下无法求值：%1</translation>
    </message>
    <message>
        <source>%1 does not evaluate: %2</source>
        <translation>%1 无法求值：%2</translation>
    </message>
    <message>
        <source>not compiled</source>
        <translation>未编译</translation>
    </message>
    <message>
        <source>the compile failed</source>
        <translation>编译失败</translation>
    </message>
    <message>
        <source>not compiled and no descriptor</source>
        <translation>未编译，也没有描述符</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>the compile report has no log</source>
        <translation>编译报告中没有日志</translation>
    </message>
    <message>
        <source>none recorded</source>
        <translation>无记录</translation>
    </message>
    <message>
        <source>no timing samples stored</source>
        <translation>未保存计时样本</translation>
    </message>
    <message>
        <source>no reference timed beside it</source>
        <translation>没有与之同时计时的参考实现</translation>
    </message>
    <message>
        <source>not read while timing</source>
        <translation>计时时未读取</translation>
    </message>
    <message>
        <source>not validated</source>
        <translation>未验证</translation>
    </message>
    <message>
        <source>not stored: the profile holds the theoretical occupancy and blocks per SM, not which resource (registers, shared memory, block size) limits them</source>
        <translation>未保存：剖析数据只含理论占用率和每个 SM 的线程块数，不含限制它们的资源（寄存器、共享内存、线程块大小）</translation>
    </message>
    <message>
        <source>read + written</source>
        <translation>读取 + 写入</translation>
    </message>
    <message>
        <source>%1 / median time</source>
        <translation>%1 / 中位时间</translation>
    </message>
    <message>
        <source>of %1 measured on %2</source>
        <translation>在 %2 上实测的 %1 的占比</translation>
    </message>
    <message>
        <source>the task&apos;s %1 formula</source>
        <translation>任务的 %1 公式</translation>
    </message>
    <message>
        <source>SASS fadd + fmul + 2 × ffma</source>
        <translation>SASS fadd + fmul + 2 × ffma</translation>
    </message>
    <message>
        <source>mma/wgmma in the PTX features, or the descriptor</source>
        <translation>PTX 特性中的 mma/wgmma，或描述符</translation>
    </message>
    <message>
        <source>task FLOPs / DRAM bytes (roofline)</source>
        <translation>任务 FLOPs / DRAM 字节数（屋顶线）</translation>
    </message>
    <message>
        <source>SASS FLOPs / DRAM bytes (roofline)</source>
        <translation>SASS FLOPs / DRAM 字节数（屋顶线）</translation>
    </message>
    <message>
        <source>launch rule</source>
        <translation>启动规则</translation>
    </message>
    <message>
        <source>launch rule: %1</source>
        <translation>启动规则：%1</translation>
    </message>
    <message>
        <source>launch rule %1 at %2</source>
        <translation>启动规则 %1，取 %2</translation>
    </message>
    <message>
        <source>launch rule %1 (does not evaluate at the task&apos;s axes: %2)</source>
        <translation>启动规则 %1（在任务的维度取值下无法求值：%2）</translation>
    </message>
    <message>
        <source>grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>block</source>
        <translation>线程块</translation>
    </message>
    <message>
        <source>grid × block</source>
        <translation>网格 × 线程块</translation>
    </message>
    <message>
        <source>block size / 32</source>
        <translation>线程块大小 / 32</translation>
    </message>
    <message>
        <source>NVRTC + ptxas</source>
        <translation>NVRTC + ptxas</translation>
    </message>
    <message>
        <source>NVRTC log</source>
        <translation>NVRTC 日志</translation>
    </message>
    <message>
        <source>PTX features</source>
        <translation>PTX 特性</translation>
    </message>
    <message>
        <source>stored with the timing</source>
        <translation>随计时结果保存</translation>
    </message>
    <message>
        <source>IQR / median</source>
        <translation>IQR / 中位数</translation>
    </message>
    <message>
        <source>timing samples</source>
        <translation>计时样本</translation>
    </message>
    <message>
        <source>reference median / median</source>
        <translation>参考实现中位数 / 中位数</translation>
    </message>
    <message>
        <source>the reference timed in the same worker</source>
        <translation>在同一工作进程中计时的参考实现</translation>
    </message>
    <message>
        <source>read while timing</source>
        <translation>计时时读取</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>over the trials</source>
        <translation>所有试验中</translation>
    </message>
    <message>
        <source>summed over the trials</source>
        <translation>所有试验之和</translation>
    </message>
    <message>
        <source>profile counter</source>
        <translation>剖析计数器</translation>
    </message>
    <message>
        <source>none (100 % theoretical)</source>
        <translation>无（理论占用率 100 %）</translation>
    </message>
    <message>
        <source>(the task&apos;s entry)</source>
        <translation>（任务的入口函数）</translation>
    </message>
    <message>
        <source>compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n 个错误</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation>
            <numerusform>%n 个警告</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>seed %1: passed, max abs error %2, max rel error %3</source>
        <translation>种子 %1：通过，最大绝对误差 %2，最大相对误差 %3</translation>
    </message>
    <message>
        <source>seed %1: failed, max abs error %2, max rel error %3</source>
        <translation>种子 %1：未通过，最大绝对误差 %2，最大相对误差 %3</translation>
    </message>
    <message numerus="yes">
        <source>%n mismatched</source>
        <translation>
            <numerusform>%n 个元素不匹配</numerusform>
        </translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s) not shown</source>
        <translation>
            <numerusform>… 另有 %n 行未显示</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EngineMessages</name>
    <message numerus="yes">
        <source>evaluation budget of %n reached</source>
        <translation>
            <numerusform>已达到 %n 次评估的预算</numerusform>
        </translation>
    </message>
    <message>
        <source>wall-time budget of %1 s reached</source>
        <translation>已达到 %1 s 的墙钟时间预算</translation>
    </message>
    <message>
        <source>GPU-time budget of %1 s reached</source>
        <translation>已达到 %1 s 的 GPU 时间预算</translation>
    </message>
    <message>
        <source>model budget spent: %1 of %2</source>
        <translation>语言模型预算已用尽：已用 %1，预算 %2</translation>
    </message>
    <message>
        <source>model token budget spent: %1 of %2 tokens</source>
        <translation>语言模型 token 预算已用尽：已用 %1 个 token，预算 %2 个</translation>
    </message>
    <message numerus="yes">
        <source>generation limit of %n reached</source>
        <translation>
            <numerusform>已达到 %n 代的代数上限</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the proposer made no new configuration in %n generation(s) (search space exhausted)</source>
        <translation>
            <numerusform>提议器在 %n 代内未产生新配置（搜索空间已穷尽）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>the proposer made no new configuration in %n generation(s); its last reason: %1</source>
        <translation>
            <numerusform>提议器在 %n 代内未产生新配置；最后的原因：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>no candidate could be made for this %1 task: proposer &apos;%2&apos; says: %3 (add a tunable kernel, or use a language-model proposer)</source>
        <translation>无法为此 %1 任务生成任何候选：提议器“%2”报告：%3（请添加可调优的内核，或使用语言模型提议器）</translation>
    </message>
    <message>
        <source>run finished: %1</source>
        <translation>运行已完成：%1</translation>
    </message>
    <message>
        <source>run stopped; it can be resumed</source>
        <translation>运行已停止；之后可以继续</translation>
    </message>
    <message>
        <source>run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message numerus="yes">
        <source>resuming: %n candidate(s) were in flight</source>
        <translation>
            <numerusform>正在继续：有 %n 个候选在途</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>waiting for review of %n new architecture(s)</source>
        <translation>
            <numerusform>等待评审 %n 个新架构</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>generation %1: %n elite(s) migrated between islands</source>
        <translation>
            <numerusform>第 %1 代：%n 个精英在岛屿之间迁移</numerusform>
        </translation>
    </message>
    <message>
        <source>strategy &apos;%1&apos; varied into &apos;%2&apos;</source>
        <translation>策略“%1”已变化为“%2”</translation>
    </message>
    <message>
        <source>no sanitizer is configured: candidates are validated, but none can be sealed</source>
        <translation>未配置 sanitizer：候选会被验证，但都无法封存</translation>
    </message>
    <message>
        <source>reference timed: median %1 µs on %2</source>
        <translation>参考实现已计时：在 %2 上中位数 %1 µs</translation>
    </message>
    <message numerus="yes">
        <source>measured %n ceiling(s) of %1</source>
        <translation>
            <numerusform>已测得 %1 的 %n 项峰值上限</numerusform>
        </translation>
    </message>
    <message>
        <source>could not measure the device ceilings: %1</source>
        <translation>无法测量设备的峰值上限：%1</translation>
    </message>
    <message numerus="yes">
        <source>reference profiled: %n metric(s)</source>
        <translation>
            <numerusform>参考实现已剖析：%n 项指标</numerusform>
        </translation>
    </message>
    <message>
        <source>the reference was not profiled</source>
        <translation>参考实现未剖析</translation>
    </message>
    <message>
        <source>the reference was not profiled: %1</source>
        <translation>参考实现未剖析：%1</translation>
    </message>
    <message>
        <source>the reference could not be profiled: %1</source>
        <translation>无法剖析参考实现：%1</translation>
    </message>
    <message>
        <source>no reference analysis: the task spec does not parse: %1</source>
        <translation>无参考实现分析：任务规格无法解析：%1</translation>
    </message>
    <message>
        <source>proposer &apos;%1&apos; gave no seed: %2</source>
        <translation>提议器“%1”未给出初始候选：%2</translation>
    </message>
    <message>
        <source>proposer &apos;%1&apos; made no candidate (%2): %3</source>
        <translation>提议器“%1”未生成候选（%2）：%3</translation>
    </message>
    <message>
        <source>proposal discarded: %1</source>
        <translation>提议已丢弃：%1</translation>
    </message>
    <message>
        <source>user candidate %1 joined the run: %2, fitness %3</source>
        <translation>用户候选 %1 已加入运行：%2，适应度 %3</translation>
    </message>
    <message>
        <source>user candidate %1 joined the run: %2</source>
        <translation>用户候选 %1 已加入运行：%2</translation>
    </message>
    <message>
        <source>user candidate %1 cannot enter the archive: %2</source>
        <translation>用户候选 %1 无法进入归档：%2</translation>
    </message>
    <message>
        <source>another process asked this run to stop (%1)</source>
        <translation>另一个进程请求停止此运行（%1）</translation>
    </message>
    <message>
        <source>the archive starts from the seal&apos;s architecture %1</source>
        <translation>归档从封存的架构 %1 开始</translation>
    </message>
    <message>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>any architecture</source>
        <translation>任意架构</translation>
    </message>
    <message>
        <source>any operator</source>
        <translation>任意算子</translation>
    </message>
    <message>
        <source>any shape</source>
        <translation>任意形状</translation>
    </message>
    <message>
        <source>no key store</source>
        <translation>无密钥存储</translation>
    </message>
    <message>
        <source>Language models</source>
        <translation>语言模型</translation>
    </message>
    <message>
        <source>The key was not stored: %1</source>
        <translation>密钥未能保存：%1</translation>
    </message>
</context>
<context>
    <name>RooflineReasons</name>
    <message>
        <source>not timed</source>
        <translation>未计时</translation>
    </message>
    <message>
        <source>not profiled</source>
        <translation>未剖析</translation>
    </message>
    <message>
        <source>profile lacks the DRAM and L2 byte counters (%1, %2)</source>
        <translation>剖析数据中缺少 DRAM 和 L2 字节计数器（%1、%2）</translation>
    </message>
    <message>
        <source>tensor-core kernel and the task has no usable flops formula</source>
        <translation>张量核心内核，且任务没有可用的 flops 公式</translation>
    </message>
    <message>
        <source>profile lacks the SASS fadd/fmul/ffma counters</source>
        <translation>剖析数据中缺少 SASS fadd/fmul/ffma 计数器</translation>
    </message>
    <message>
        <source>no floating-point work counted</source>
        <translation>未统计到浮点运算</translation>
    </message>
    <message>
        <source>no DRAM traffic counted</source>
        <translation>未统计到 DRAM 流量</translation>
    </message>
    <message>
        <source>profile lacks %1 or %2</source>
        <translation>剖析数据中缺少 %1 或 %2</translation>
    </message>
</context>
<context>
    <name>StatusNames</name>
    <message>
        <source>proposed</source>
        <translation>已提议</translation>
    </message>
    <message>
        <source>awaiting-review</source>
        <translation>待评审</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>compiled</source>
        <translation>已编译</translation>
    </message>
    <message>
        <source>compile-failed</source>
        <translation>编译失败</translation>
    </message>
    <message>
        <source>invalid</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>faulted</source>
        <translation>出错</translation>
    </message>
    <message>
        <source>timed-out</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>resource-error</source>
        <translation>资源错误</translation>
    </message>
    <message>
        <source>valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <source>created</source>
        <comment>run status</comment>
        <translation>已创建</translation>
    </message>
    <message>
        <source>running</source>
        <comment>run status</comment>
        <translation>运行中</translation>
    </message>
    <message>
        <source>paused</source>
        <comment>run status</comment>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>stopped</source>
        <comment>run status</comment>
        <translation>已停止</translation>
    </message>
    <message>
        <source>finished</source>
        <comment>run status</comment>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <comment>run status</comment>
        <translation>失败</translation>
    </message>
    <message>
        <source>hypothesis</source>
        <comment>knowledge status</comment>
        <translation>假设</translation>
    </message>
    <message>
        <source>validated</source>
        <comment>knowledge status</comment>
        <translation>已验证</translation>
    </message>
    <message>
        <source>refuted</source>
        <comment>knowledge status</comment>
        <translation>已驳斥</translation>
    </message>
</context>
<context>
    <name>crucible::app::DraftKeeper</name>
    <message>
        <source>Your unsaved edit could not be kept in the project: %1</source>
        <translation>未保存的编辑无法保留在项目中：%1</translation>
    </message>
    <message>
        <source>An old draft could not be deleted from the project: %1</source>
        <translation>无法从项目中删除旧草稿：%1</translation>
    </message>
    <message>
        <source>Restore unsaved edit of kernel forked from #%1 (saved %2)?</source>
        <translation>恢复从 #%1 派生的内核的未保存编辑（保存于 %2）？</translation>
    </message>
    <message>
        <source>Restore unsaved edit of a kernel opened from a file into run #%1 (saved %2)?</source>
        <translation>恢复从文件打开、加入运行 #%1 的内核的未保存编辑（保存于 %2）？</translation>
    </message>
    <message>
        <source>Unsaved kernel edit</source>
        <translation>未保存的内核编辑</translation>
    </message>
    <message>
        <source>The kernel editor held an edit that was not evaluated when the workbench last closed. Discard deletes it from the project.</source>
        <translation>工作台上次关闭时，内核编辑器中有一处尚未评估的编辑。“丢弃”会将其从项目中删除。</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>稍后</translation>
    </message>
    <message>
        <source>cannot write a scratch copy: %1</source>
        <translation>无法写入临时副本：%1</translation>
    </message>
    <message>
        <source>The unsaved edit was not restored (it stays in the project): %1</source>
        <translation>未保存的编辑未能恢复（仍保留在项目中）：%1</translation>
    </message>
</context>
<context>
    <name>crucible::app::EngineController</name>
    <message>
        <source>A run is already in progress.</source>
        <translation>已有一个运行正在进行。</translation>
    </message>
</context>
<context>
    <name>crucible::app::GuiBackends</name>
    <message>
        <source>this build of Crucible has no CUDA support (CRUCIBLE_HAVE_CUDA is off)</source>
        <translation>此 Crucible 构建不支持 CUDA（CRUCIBLE_HAVE_CUDA 已关闭）</translation>
    </message>
    <message>
        <source>Nothing can be evaluated here: this build of Crucible has no CUDA support.</source>
        <translation>此处无法评估任何内容：此 Crucible 构建不支持 CUDA。</translation>
    </message>
</context>
<context>
    <name>crucible::app::HostProbe</name>
    <message>
        <source>GPU: %1 (%2), CUDA driver %3</source>
        <translation>GPU：%1（%2），CUDA 驱动 %3</translation>
    </message>
    <message>
        <source> and %1 more GPU(s)</source>
        <translation>，另有 %1 个 GPU</translation>
    </message>
</context>
<context>
    <name>crucible::app::NoCudaInspector</name>
    <message>
        <source>no CUDA toolkit in this build: Crucible was built without CUDA (CRUCIBLE_HAVE_CUDA is off), so kernels cannot be compiled or inspected here</source>
        <translation>此构建中没有 CUDA 工具包：Crucible 构建时未启用 CUDA（CRUCIBLE_HAVE_CUDA 已关闭），因此无法在此编译或检查内核</translation>
    </message>
    <message>
        <source>no SASS: no CUDA toolkit in this build</source>
        <translation>无 SASS：此构建中没有 CUDA 工具包</translation>
    </message>
</context>
<context>
    <name>crucible::app::RunCoordinator</name>
    <message>
        <source>&amp;Resume run</source>
        <translation>继续运行(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <source>&amp;Import task...</source>
        <translation>导入任务(&amp;I)...</translation>
    </message>
    <message>
        <source>No project open: the verdict was not recorded.</source>
        <translation>未打开项目：评审结论未记录。</translation>
    </message>
    <message>
        <source>The verdict was not recorded: %1</source>
        <translation>评审结论未记录：%1</translation>
    </message>
    <message>
        <source>The verdict on %1 was not recorded: %2</source>
        <translation>对 %1 的评审结论未记录：%2</translation>
    </message>
    <message>
        <source>The project is open read-only (%1): nothing can be recorded in it.</source>
        <translation>项目以只读方式打开（%1）：无法在其中记录任何内容。</translation>
    </message>
    <message>
        <source>Stopping the run of %1: it stays resumable.</source>
        <translation>正在停止 %1 的运行：之后仍可继续。</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>A run is in progress.</source>
        <translation>有运行正在进行。</translation>
    </message>
    <message>
        <source>No run selected.</source>
        <translation>未选择运行。</translation>
    </message>
    <message>
        <source>Run %1 is %2: only a stopped or interrupted run can be resumed.</source>
        <translation>运行 %1 的状态为 %2：只有已停止或被中断的运行才能继续。</translation>
    </message>
    <message>
        <source>Continue the selected run where it stopped.</source>
        <translation>从停止处继续所选运行。</translation>
    </message>
    <message>
        <source>Add a task spec (.json, format in resources/tasks/README.md) to the project</source>
        <translation>向项目添加任务规格（.json，格式见 resources/tasks/README.md）</translation>
    </message>
    <message>
        <source>Unknown proposer &quot;%1&quot;: this workbench offers &quot;template&quot; and &quot;llm&quot;.</source>
        <translation>未知的提议器“%1”：本工作台提供 &quot;template&quot; 和 &quot;llm&quot;。</translation>
    </message>
    <message>
        <source>A run is in progress: stop it first.</source>
        <translation>有运行正在进行：请先停止它。</translation>
    </message>
    <message>
        <source>No built-in task named &quot;%1&quot;.</source>
        <translation>没有名为“%1”的内置任务。</translation>
    </message>
    <message>
        <source>Task %1 is not in the project: its starting kernels cannot be checked.</source>
        <translation>任务 %1 不在项目中：无法检查其起始内核。</translation>
    </message>
    <message>
        <source>Starting kernel &apos;%1&apos; cannot start this run: %2</source>
        <translation>起始内核“%1”无法开始此运行：%2</translation>
    </message>
    <message>
        <source>Run %1 was proposed for by a language model: %2</source>
        <translation>运行 %1 使用语言模型提议：%2</translation>
    </message>
    <message>
        <source>Run %1 cannot be resumed: %2</source>
        <translation>运行 %1 无法继续：%2</translation>
    </message>
    <message>
        <source>Run %1 started.</source>
        <translation>运行 %1 已开始。</translation>
    </message>
    <message>
        <source>Run %1 failed: %2</source>
        <translation>运行 %1 失败：%2</translation>
    </message>
    <message>
        <source>Architecture %1 waits for your review.</source>
        <translation>架构 %1 等待您评审。</translation>
    </message>
    <message>
        <source>No project is open: open or create one first.</source>
        <translation>未打开项目：请先打开或新建一个项目。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Task %1 is in the project.</source>
        <translation>任务 %1 已在项目中。</translation>
    </message>
    <message>
        <source>Import task</source>
        <translation>导入任务</translation>
    </message>
    <message>
        <source>Task specs (*.json);;All files (*)</source>
        <translation>任务规格 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>no language model is set up.</source>
        <translation>尚未配置语言模型。</translation>
    </message>
    <message>
        <source>the language-model preferences are not usable (%1).</source>
        <translation>语言模型首选项不可用（%1）。</translation>
    </message>
    <message>
        <source>Templates</source>
        <translation>模板</translation>
    </message>
    <message>
        <source>Language model</source>
        <translation>语言模型</translation>
    </message>
    <message>
        <source>Open Edit &gt; Preferences... to set it up.</source>
        <translation>打开“编辑 &gt; 首选项...”进行配置。</translation>
    </message>
    <message>
        <source>The language model is not set up (%1): open Edit &gt; Preferences...</source>
        <translation>语言模型尚未配置（%1）：请打开“编辑 &gt; 首选项...”</translation>
    </message>
    <message>
        <source>the system keychain holds no key under %1</source>
        <translation>系统密钥环中没有 %1 名下的密钥</translation>
    </message>
    <message>
        <source>No key for the language model: %1, and the environment variable %2 is not set. Store the key in Edit &gt; Preferences... or set %2 before starting Crucible.</source>
        <translation>语言模型没有密钥：%1，且环境变量 %2 未设置。请在“编辑 &gt; 首选项...”中保存密钥，或在启动 Crucible 前设置 %2。</translation>
    </message>
    <message>
        <source>Stopping the run: the window closes once the candidates in flight are done (the run stays resumable).</source>
        <translation>正在停止运行：在途候选完成后窗口即关闭（运行之后仍可继续）。</translation>
    </message>
    <message>
        <source>Reference kernel &apos;%1&apos; cannot be this run&apos;s reference: %2</source>
        <translation>参考内核“%1”不能作为此运行的参考实现：%2</translation>
    </message>
    <message>
        <source>the task&apos;s spec does not parse: %1</source>
        <translation>任务规格无法解析：%1</translation>
    </message>
</context>
<context>
    <name>crucible::app::UserEvaluationRunner</name>
    <message>
        <source>Nothing can be evaluated here: no compiler or GPU backend.</source>
        <translation>此处无法评估任何内容：没有编译器或 GPU 后端。</translation>
    </message>
    <message>
        <source>An evaluation is in progress.</source>
        <translation>有评估正在进行。</translation>
    </message>
    <message>
        <source>Open a project: the evaluated kernel joins one of its runs.</source>
        <translation>请打开一个项目：评估的内核将加入其中一个运行。</translation>
    </message>
    <message>
        <source>This project cannot record a candidate: %1.</source>
        <translation>此项目无法记录候选：%1。</translation>
    </message>
    <message>
        <source>This window has no kernel editor.</source>
        <translation>此窗口没有内核编辑器。</translation>
    </message>
    <message>
        <source>Nothing to evaluate: fork a candidate or open a kernel of the open project first.</source>
        <translation>没有可评估的内容：请先派生一个候选，或打开当前项目中的一个内核。</translation>
    </message>
    <message>
        <source>This machine&apos;s GPU could not be identified: %1</source>
        <translation>无法识别本机的 GPU：%1</translation>
    </message>
    <message>
        <source>Not evaluated: %1</source>
        <translation>未评估：%1</translation>
    </message>
    <message>
        <source>Evaluating your kernel</source>
        <translation>正在评估您的内核</translation>
    </message>
    <message>
        <source>Seal #%1 not validated again: %2</source>
        <translation>封存 #%1 未重新验证：%2</translation>
    </message>
    <message>
        <source>seal #%1 is not in this project</source>
        <translation>封存 #%1 不在此项目中</translation>
    </message>
    <message>
        <source>Not validated again: %1</source>
        <translation>未重新验证：%1</translation>
    </message>
    <message>
        <source>Seal #%1 validated again on this GPU (sealed on %2)</source>
        <translation>封存 #%1 已在此 GPU 上重新验证（封存于 %2）</translation>
    </message>
    <message>
        <source>Validating seal #%1 again</source>
        <translation>正在重新验证封存 #%1</translation>
    </message>
    <message>
        <source>Preparing…</source>
        <translation>正在准备…</translation>
    </message>
    <message>
        <source>Cancelling: the step in flight finishes, then nothing is stored.</source>
        <translation>正在取消：当前步骤完成后，不保存任何内容。</translation>
    </message>
    <message>
        <source>Seal #%1 was not validated again: %2</source>
        <translation>封存 #%1 未能重新验证：%2</translation>
    </message>
    <message>
        <source>Your kernel was not evaluated: %1</source>
        <translation>您的内核未被评估：%1</translation>
    </message>
    <message>
        <source>Evaluation cancelled: nothing was stored.</source>
        <translation>评估已取消：未保存任何内容。</translation>
    </message>
    <message>
        <source>Your kernel is candidate #%1 of run %2: %3</source>
        <translation>您的内核是运行 %2 的候选 #%1：%3</translation>
    </message>
    <message>
        <source>, %1x the reference</source>
        <translation>，为参考实现的 %1x</translation>
    </message>
    <message>
        <source>; sealed</source>
        <translation>；已封存</translation>
    </message>
    <message>
        <source>Seal #%1 validated again on %2: %3</source>
        <translation>封存 #%1 已在 %2 上重新验证：%3</translation>
    </message>
    <message>
        <source>the dispatcher %1 has no GPU</source>
        <translation>调度器 %1 没有 GPU</translation>
    </message>
    <message>
        <source>the dispatcher %1 has no GPU to evaluate on</source>
        <translation>调度器 %1 没有可用于评估的 GPU</translation>
    </message>
    <message>
        <source>the sealed candidate #%1 is missing</source>
        <translation>已封存的候选 #%1 不存在</translation>
    </message>
    <message>
        <source>Loading the run and compiling its reference…</source>
        <translation>正在加载运行并编译其参考实现…</translation>
    </message>
    <message>
        <source>Compiling the kernel…</source>
        <translation>正在编译内核…</translation>
    </message>
    <message>
        <source>Validating, timing against the reference and profiling…</source>
        <translation>正在验证、与参考实现对比计时并剖析…</translation>
    </message>
    <message>
        <source>Storing the candidate…</source>
        <translation>正在保存候选…</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
</context>
<context>
    <name>crucible::gui::KeyStore</name>
    <message>
        <source>the system keychain did not answer within %1 s (%2)</source>
        <translation>系统密钥环在 %1 秒内没有响应（%2）</translation>
    </message>
    <message>
        <source>no key is stored under %1</source>
        <translation>%1 名下没有保存密钥</translation>
    </message>
    <message>
        <source>no system keychain is available (%1); set the key in the environment variable %2 instead</source>
        <translation>没有可用的系统密钥环（%1）；请改为在环境变量 %2 中设置密钥</translation>
    </message>
    <message>
        <source>the system keychain refused access (%1)</source>
        <translation>系统密钥环拒绝访问（%1）</translation>
    </message>
    <message>
        <source>the system keychain failed (%1); set the key in the environment variable %2 instead</source>
        <translation>系统密钥环出错（%1）；请改为在环境变量 %2 中设置密钥</translation>
    </message>
    <message>
        <source>the key needs a name (the key variable)</source>
        <translation>密钥需要一个名称（密钥变量）</translation>
    </message>
    <message>
        <source>the key is empty</source>
        <translation>密钥为空</translation>
    </message>
    <message>
        <source>storing %1</source>
        <translation>正在保存 %1</translation>
    </message>
    <message>
        <source>reading %1</source>
        <translation>正在读取 %1</translation>
    </message>
    <message>
        <source>removing %1</source>
        <translation>正在删除 %1</translation>
    </message>
</context>
<context>
    <name>crucible::views::AboutBox</name>
    <message>
        <source>A workbench that evolves GPU kernels.&lt;br&gt;Licensed under the GPL, version 3 or later.</source>
        <translation>一个演化 GPU 内核的工作台。&lt;br&gt;依据 GPL 第 3 版或更高版本授权。</translation>
    </message>
    <message>
        <source>Qt: %1 (built with %2)</source>
        <translation>Qt：%1（构建于 %2）</translation>
    </message>
    <message>
        <source>CUDA driver: %1</source>
        <translation>CUDA 驱动：%1</translation>
    </message>
    <message>
        <source>version unknown</source>
        <translation>版本未知</translation>
    </message>
    <message>
        <source>CUDA driver: not found</source>
        <translation>CUDA 驱动：未找到</translation>
    </message>
    <message>
        <source>GPUs: none</source>
        <translation>GPU：无</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
</context>
<context>
    <name>crucible::views::AddClaimDialog</name>
    <message>
        <source>Add claim</source>
        <translation>添加论断</translation>
    </message>
    <message>
        <source>empty: any operator</source>
        <translation>留空：任意算子</translation>
    </message>
    <message>
        <source>empty: any shape; or e.g. M~2^13 N~2^12</source>
        <translation>留空：任意形状；或例如 M~2^13 N~2^12</translation>
    </message>
    <message>
        <source>vector: 1 -&gt; 4, or vector=4</source>
        <translation>vector: 1 -&gt; 4，或 vector=4</translation>
    </message>
    <message>
        <source>The claim in your words</source>
        <translation>用你自己的话表述论断</translation>
    </message>
    <message>
        <source>Pin: use it as validated before any evidence arrives</source>
        <translation>固定：在任何证据到来之前就当作已验证使用</translation>
    </message>
    <message>
        <source>Architecture:</source>
        <translation>架构：</translation>
    </message>
    <message>
        <source>Operator family:</source>
        <translation>算子族：</translation>
    </message>
    <message>
        <source>Shape class:</source>
        <translation>形状类别：</translation>
    </message>
    <message>
        <source>Decision:</source>
        <translation>决策：</translation>
    </message>
    <message>
        <source>Claim:</source>
        <translation>论断：</translation>
    </message>
    <message>
        <source>A claim you add is a hypothesis with no evidence: runs use it once observations of its decision validate it, or at once if you pin it.</source>
        <translation>你添加的论断是没有证据的假设：一旦对其决策的观测验证了它，运行就会使用它；如果你固定它，则立即使用。</translation>
    </message>
</context>
<context>
    <name>crucible::views::ArchiveGridModel</name>
    <message>
        <source>empty cell</source>
        <translation>空单元格</translation>
    </message>
    <message>
        <source>elite #%1, fitness %2
%3 = %4, %5 = %6
best of %7 archive cell(s)</source>
        <translation>精英 #%1，适应度 %2
%3 = %4，%5 = %6
%7 个归档单元格中的最优</translation>
    </message>
</context>
<context>
    <name>crucible::views::ArchiveMapView</name>
    <message>
        <source>Columns:</source>
        <translation>列：</translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation>行：</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation>此项目还没有运行。</translation>
    </message>
    <message>
        <source>The archive of this run is empty: no candidate has been placed in a cell yet.</source>
        <translation>此运行的归档为空：尚无候选被放入单元格。</translation>
    </message>
    <message>
        <source>%1 archive cells, %2 of %3 shown cells filled</source>
        <translation>%1 个归档单元格，显示的 %3 个单元格中已填充 %2 个</translation>
    </message>
    <message>
        <source>Select #%1</source>
        <translation>选择 #%1</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit #%1</source>
        <translation>派生并编辑 #%1</translation>
    </message>
</context>
<context>
    <name>crucible::views::CandidateDetailsView</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Show every figure beside this candidate&apos;s, with the difference</source>
        <translation>在此候选旁显示每项指标及其差值</translation>
    </message>
    <message>
        <source>Baseline:</source>
        <translation>基线：</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>No candidate selected.</source>
        <translation>未选择候选。</translation>
    </message>
    <message>
        <source>No candidate selected: select one in any view.</source>
        <translation>未选择候选：请在任一视图中选择一个。</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation>候选 #%1 不在此项目中。</translation>
    </message>
    <message>
        <source>The baseline #%1 is not in this project.</source>
        <translation>基线 #%1 不在此项目中。</translation>
    </message>
    <message>
        <source>The baseline is this candidate: every difference is 0.</source>
        <translation>基线就是此候选：所有差值均为 0。</translation>
    </message>
    <message>
        <source>reference median timed beside #%1 (dashed)</source>
        <translation>与 #%1 同时计时的参考实现中位数（虚线）</translation>
    </message>
    <message>
        <source>reference #%1</source>
        <translation>参考实现 #%1</translation>
    </message>
    <message>
        <source>baseline #%1</source>
        <translation>基线 #%1</translation>
    </message>
    <message>
        <source>#%1 is not timed.</source>
        <translation>#%1 未计时。</translation>
    </message>
</context>
<context>
    <name>crucible::views::CandidatesModel</name>
    <message>
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>代</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Proposer / mutation</source>
        <translation>提议器 / 变异</translation>
    </message>
    <message>
        <source>Median µs</source>
        <translation>中位数 µs</translation>
    </message>
    <message>
        <source>Speedup</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>Registers</source>
        <translation>寄存器</translation>
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
        <translation>指标</translation>
    </message>
    <message>
        <source>Source diff</source>
        <translation>源代码差异</translation>
    </message>
    <message>
        <source>%1 candidates chosen: the first %2 are compared.</source>
        <translation>已选择 %1 个候选：对比前 %2 个。</translation>
    </message>
    <message>
        <source>Nothing to compare.</source>
        <translation>没有可对比的内容。</translation>
    </message>
    <message>
        <source>Select two or more candidates to compare them.</source>
        <translation>选择两个或更多候选以进行对比。</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation>候选 #%1 不在此项目中。</translation>
    </message>
    <message>
        <source>Select at least two candidates to compare them.</source>
        <translation>至少选择两个候选以进行对比。</translation>
    </message>
    <message>
        <source>Comparing %1</source>
        <translation>正在对比 %1</translation>
    </message>
    <message>
        <source>None of them is timed.</source>
        <translation>它们均未计时。</translation>
    </message>
    <message>
        <source>#%1 (left) against #%2 (right)</source>
        <translation>#%1（左）对比 #%2（右）</translation>
    </message>
    <message>
        <source>The source diff needs two candidates.</source>
        <translation>源代码差异需要两个候选。</translation>
    </message>
</context>
<context>
    <name>crucible::views::DetailLabels</name>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Diagnostics</source>
        <translation>诊断信息</translation>
    </message>
    <message>
        <source>PTX features</source>
        <translation>PTX 特性</translation>
    </message>
    <message>
        <source>ptxas log</source>
        <translation>ptxas 日志</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Compile time</source>
        <translation>编译耗时</translation>
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
        <translation>FP32，占 FMA 屋顶的 %</translation>
    </message>
    <message>
        <source>Arithmetic intensity</source>
        <translation>算术强度</translation>
    </message>
    <message>
        <source>Task FLOPs</source>
        <translation>任务 FLOPs</translation>
    </message>
    <message>
        <source>Task FLOP/s</source>
        <translation>任务 FLOP/s</translation>
    </message>
    <message>
        <source>Tensor-core FLOPs</source>
        <translation>张量核心 FLOPs</translation>
    </message>
    <message>
        <source>Tensor-core FLOP/s</source>
        <translation>张量核心 FLOP/s</translation>
    </message>
    <message>
        <source>Tensor cores, % of BF16 roof</source>
        <translation>张量核心，占 BF16 屋顶的 %</translation>
    </message>
    <message>
        <source>Uses tensor cores</source>
        <translation>使用张量核心</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>线程块</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>线程块数</translation>
    </message>
    <message>
        <source>Registers per thread (driver)</source>
        <translation>每线程寄存器数（驱动报告）</translation>
    </message>
    <message>
        <source>Dynamic shared memory</source>
        <translation>动态共享内存</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>入口</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Local memory per thread</source>
        <translation>每线程本地内存</translation>
    </message>
    <message>
        <source>Max threads per block (compiled)</source>
        <translation>每线程块最大线程数（编译结果）</translation>
    </message>
    <message>
        <source>Registers per thread</source>
        <translation>每线程寄存器数</translation>
    </message>
    <message>
        <source>Spill loads</source>
        <translation>溢出加载</translation>
    </message>
    <message>
        <source>Spill stores</source>
        <translation>溢出存储</translation>
    </message>
    <message>
        <source>Static shared memory</source>
        <translation>静态共享内存</translation>
    </message>
    <message>
        <source>TMA tensor maps</source>
        <translation>TMA 张量映射</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Threads per block</source>
        <translation>每线程块线程数</translation>
    </message>
    <message>
        <source>Achieved occupancy</source>
        <translation>实际占用率</translation>
    </message>
    <message>
        <source>Blocks per SM (theoretical)</source>
        <translation>每 SM 线程块数（理论）</translation>
    </message>
    <message>
        <source>Occupancy limiter</source>
        <translation>占用率限制因素</translation>
    </message>
    <message>
        <source>Theoretical occupancy</source>
        <translation>理论占用率</translation>
    </message>
    <message>
        <source>Warps per block</source>
        <translation>每线程块 warp 数</translation>
    </message>
    <message>
        <source>DRAM bandwidth</source>
        <translation>DRAM 带宽</translation>
    </message>
    <message>
        <source>DRAM bytes</source>
        <translation>DRAM 字节数</translation>
    </message>
    <message>
        <source>DRAM bytes read</source>
        <translation>DRAM 读取字节数</translation>
    </message>
    <message>
        <source>DRAM bandwidth, % of roof</source>
        <translation>DRAM 带宽，占屋顶的 %</translation>
    </message>
    <message>
        <source>DRAM bytes written</source>
        <translation>DRAM 写入字节数</translation>
    </message>
    <message>
        <source>Effective bandwidth</source>
        <translation>有效带宽</translation>
    </message>
    <message>
        <source>Effective bandwidth, % of DRAM roof</source>
        <translation>有效带宽，占 DRAM 屋顶的 %</translation>
    </message>
    <message>
        <source>L1 bandwidth</source>
        <translation>L1 带宽</translation>
    </message>
    <message>
        <source>L1 bytes</source>
        <translation>L1 字节数</translation>
    </message>
    <message>
        <source>L2 bandwidth</source>
        <translation>L2 带宽</translation>
    </message>
    <message>
        <source>L2 bytes</source>
        <translation>L2 字节数</translation>
    </message>
    <message>
        <source>L2 bandwidth, % of roof</source>
        <translation>L2 带宽，占屋顶的 %</translation>
    </message>
    <message>
        <source>Task minimum bytes</source>
        <translation>任务最少字节数</translation>
    </message>
    <message>
        <source>Interquartile range</source>
        <translation>四分位距</translation>
    </message>
    <message>
        <source>Interquartile range / median</source>
        <translation>四分位距 / 中位数</translation>
    </message>
    <message>
        <source>Maximum</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均值</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>Minimum</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Duration under the profiler</source>
        <translation>剖析器下的耗时</translation>
    </message>
    <message>
        <source>Reference interquartile range</source>
        <translation>参考实现四分位距</translation>
    </message>
    <message>
        <source>Reference median (interleaved)</source>
        <translation>参考实现中位数（交错计时）</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>SM clock</source>
        <translation>SM 时钟</translation>
    </message>
    <message>
        <source>Speedup over the reference</source>
        <translation>相对参考实现的加速比</translation>
    </message>
    <message>
        <source>Spread (max − min)</source>
        <translation>离散度（最大 − 最小）</translation>
    </message>
    <message>
        <source>Largest absolute error</source>
        <translation>最大绝对误差</translation>
    </message>
    <message>
        <source>Largest relative error</source>
        <translation>最大相对误差</translation>
    </message>
    <message>
        <source>Mismatched elements</source>
        <translation>不匹配元素数</translation>
    </message>
    <message>
        <source>Trials passed</source>
        <translation>通过的试验</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>试验次数</translation>
    </message>
    <message>
        <source>Trial %1</source>
        <translation>试验 %1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>crucible::views::DetailsModel</name>
    <message>
        <source>missing: not recorded for this candidate</source>
        <translation>缺失：此候选未记录</translation>
    </message>
    <message>
        <source>not recorded for this candidate</source>
        <translation>此候选未记录</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Baseline #%1</source>
        <translation>基线 #%1</translation>
    </message>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>%1 against #%2</source>
        <translation>%1 对比 #%2</translation>
    </message>
    <message>
        <source>missing: %1</source>
        <translation>缺失：%1</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>Occupancy</source>
        <translation>占用率</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>启动</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Timing</source>
        <translation>计时</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>Other counters</source>
        <translation>其他计数器</translation>
    </message>
    <message>
        <source>registers</source>
        <translation>个寄存器</translation>
    </message>
    <message>
        <source>warps</source>
        <translation>个 warp</translation>
    </message>
    <message>
        <source>blocks</source>
        <translation>个线程块</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>个线程</translation>
    </message>
    <message>
        <source>trials</source>
        <translation>次试验</translation>
    </message>
    <message>
        <source>launches</source>
        <translation>次启动</translation>
    </message>
    <message>
        <source>elements</source>
        <translation>个元素</translation>
    </message>
    <message>
        <source>instructions</source>
        <translation>条指令</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>个样本</translation>
    </message>
    <message>
        <source>%1 pp</source>
        <translation>%1 个百分点</translation>
    </message>
    <message>
        <source>operations</source>
        <translation>次运算</translation>
    </message>
</context>
<context>
    <name>crucible::views::DiffView</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Swap</source>
        <translation>交换</translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation>上一处改动</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>下一处改动</translation>
    </message>
    <message>
        <source>Left:</source>
        <translation>左：</translation>
    </message>
    <message>
        <source>Right:</source>
        <translation>右：</translation>
    </message>
    <message>
        <source>identical source</source>
        <translation>源代码相同</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n 处改动</numerusform>
        </translation>
    </message>
    <message>
        <source>change %1 of %2</source>
        <translation>第 %1 处改动，共 %2 处</translation>
    </message>
    <message>
        <source>Swap sides</source>
        <translation>交换两侧</translation>
    </message>
    <message>
        <source>Copy left source (#%1)</source>
        <translation>复制左侧源代码（#%1）</translation>
    </message>
    <message>
        <source>Copy right source (#%1)</source>
        <translation>复制右侧源代码（#%1）</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project: nothing copied.</source>
        <translation>候选 #%1 不在此项目中：未复制任何内容。</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>No candidate selected: select one in any view, or pick two candidates above.</source>
        <translation>未选择候选：请在任一视图中选择一个，或在上方挑选两个候选。</translation>
    </message>
    <message>
        <source>&lt;i&gt;no candidate on this side&lt;/i&gt;</source>
        <translation>&lt;i&gt;此侧没有候选&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation>候选 #%1 不在此项目中。</translation>
    </message>
    <message>
        <source>&lt;i&gt;#%1 not found&lt;/i&gt;</source>
        <translation>&lt;i&gt;未找到 #%1&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Candidate #%1 has no parent (it is a %2): pick a candidate on the left to compare against.</source>
        <translation>候选 #%1 没有父代（它是 %2）：请在左侧挑选一个候选进行对比。</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>种子</translation>
    </message>
</context>
<context>
    <name>crucible::views::FilteredTable</name>
    <message>
        <source>Filter…</source>
        <translation>筛选…</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>所有状态</translation>
    </message>
</context>
<context>
    <name>crucible::views::InspectionRunner</name>
    <message>
        <source>the compiler failed: %1</source>
        <translation>编译器出错：%1</translation>
    </message>
    <message>
        <source>no SASS: the compiler failed</source>
        <translation>无 SASS：编译器出错</translation>
    </message>
</context>
<context>
    <name>crucible::views::KernelEditorView</name>
    <message>
        <source>Compiling...</source>
        <translation>正在编译...</translation>
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
        <translation>尚未编译</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Validate, time and profile this kernel on the GPU; the result joins the lineage</source>
        <translation>在 GPU 上验证、计时并剖析此内核；结果将加入谱系</translation>
    </message>
    <message>
        <source>Note for the candidate (what this edit tries)</source>
        <translation>候选备注（此次编辑尝试的内容）</translation>
    </message>
    <message>
        <source>Stored with the evaluated candidate</source>
        <translation>与评估后的候选一同保存</translation>
    </message>
    <message>
        <source>No GPU here: kernels can be compiled and inspected, not evaluated</source>
        <translation>此处没有 GPU：内核可以编译和检查，但无法评估</translation>
    </message>
    <message>
        <source>The kernel&apos;s name: an extern &quot;C&quot; __global__ function of the source</source>
        <translation>内核名称：源代码中的一个 extern &quot;C&quot; __global__ 函数</translation>
    </message>
    <message>
        <source>Entry</source>
        <translation>入口</translation>
    </message>
    <message>
        <source>grid.%1: an expression over the task&apos;s axes, e.g. ceil_div(M, 128)</source>
        <translation>grid.%1：基于任务各轴的表达式，例如 ceil_div(M, 128)</translation>
    </message>
    <message>
        <source>block.%1: an expression over the task&apos;s axes</source>
        <translation>block.%1：基于任务各轴的表达式</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>线程块</translation>
    </message>
    <message>
        <source>Dynamic shared memory in bytes: an expression over the task&apos;s axes</source>
        <translation>动态共享内存字节数：基于任务各轴的表达式</translation>
    </message>
    <message>
        <source>Shared memory</source>
        <translation>共享内存</translation>
    </message>
    <message>
        <source>Find in source (Ctrl+F, Enter for the next)</source>
        <translation>在源代码中查找（Ctrl+F，按 Enter 查找下一个）</translation>
    </message>
    <message>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>Kernel editor: %1</source>
        <translation>内核编辑器：%1</translation>
    </message>
    <message>
        <source>Compiled for %1 in %2 s</source>
        <translation>已为 %1 编译，用时 %2 s</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n 个错误</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 registers, %2 B static shared memory, %3 B local memory per thread, %4 B spill stores, %5 B spill loads (%6)
PTX features: %7</source>
        <translation>%1 个寄存器，%2 B 静态共享内存，每线程 %3 B 本地内存，%4 B 溢出存储，%5 B 溢出加载（%6）
PTX 特性：%7</translation>
    </message>
    <message>
        <source>none found</source>
        <translation>未发现</translation>
    </message>
    <message>
        <source>No resource figures: the kernel did not compile</source>
        <translation>没有资源数据：内核未能编译</translation>
    </message>
    <message>
        <source>No task: the signature is not checked</source>
        <translation>没有任务：不检查签名</translation>
    </message>
    <message>
        <source>The signature matches the task</source>
        <translation>签名与任务相符</translation>
    </message>
    <message>
        <source>Signature: %1</source>
        <translation>签名：%1</translation>
    </message>
    <message>
        <source>line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>(no line)</source>
        <translation>（无行号）</translation>
    </message>
    <message>
        <source>signature: %1</source>
        <translation>签名：%1</translation>
    </message>
</context>
<context>
    <name>crucible::views::KnowledgeEditor</name>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
</context>
<context>
    <name>crucible::views::KnowledgeModel</name>
    <message>
        <source>Scope</source>
        <translation>适用范围</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>论断</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>决策</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Effect</source>
        <translation>效果</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>Observations</source>
        <translation>观测次数</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>已禁用</translation>
    </message>
    <message>
        <source>yours</source>
        <translation>你添加的</translation>
    </message>
    <message>
        <source>Measured: %1</source>
        <translation>测得：%1</translation>
    </message>
</context>
<context>
    <name>crucible::views::KnowledgeView</name>
    <message>
        <source>Search claims, decisions and scopes (full text)</source>
        <translation>搜索论断、决策和适用范围（全文）</translation>
    </message>
    <message>
        <source>Evidence (click to select):</source>
        <translation>证据（点击以选择）：</translation>
    </message>
    <message>
        <source>Select candidate #%1</source>
        <translation>选择候选 #%1</translation>
    </message>
    <message>
        <source>Select candidate</source>
        <translation>选择候选</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>Search: %1</source>
        <translation>搜索：%1</translation>
    </message>
    <message>
        <source>The knowledge base is empty: claims appear as runs measure the effect of their decisions.</source>
        <translation>知识库为空：随着各运行测得其决策的效果，论断会出现在这里。</translation>
    </message>
    <message>
        <source>No claim matches &quot;%1&quot;.</source>
        <translation>没有与“%1”匹配的论断。</translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s)</source>
        <translation>
            <numerusform>%n 条论断</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>Scope: %1&lt;br&gt;</source>
        <translation>适用范围：%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>Supports the decision: &lt;tt&gt;%1&lt;/tt&gt;&lt;br&gt;</source>
        <translation>支持的决策：&lt;tt&gt;%1&lt;/tt&gt;&lt;br&gt;</translation>
    </message>
    <message>
        <source>Status: %1; measured effect %2× over %3 observation(s)</source>
        <translation>状态：%1；在 %3 次观测中测得效果 %2×</translation>
    </message>
    <message>
        <source>&lt;br&gt;Certified by the hardware probe: %1</source>
        <translation>&lt;br&gt;已由硬件探针认证：%1</translation>
    </message>
    <message>
        <source>&lt;br&gt;Updated %1</source>
        <translation>&lt;br&gt;更新于 %1</translation>
    </message>
    <message>
        <source>No evidence candidates recorded.</source>
        <translation>未记录作为证据的候选。</translation>
    </message>
    <message>
        <source>run #%1 · %2</source>
        <translation>运行 #%1 · %2</translation>
    </message>
    <message>
        <source>#%1 (missing from the project)</source>
        <translation>#%1（项目中缺失）</translation>
    </message>
    <message>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>Use this claim as validated whatever its statistics say (from the next run on)</source>
        <translation>无论统计结果如何都将此论断当作已验证使用（从下一次运行起）</translation>
    </message>
    <message>
        <source>Disable</source>
        <translation>禁用</translation>
    </message>
    <message>
        <source>Never use this claim (its statistics are still kept)</source>
        <translation>永不使用此论断（其统计仍会保留）</translation>
    </message>
    <message>
        <source>Edit claim…</source>
        <translation>编辑论断…</translation>
    </message>
    <message>
        <source>Word the claim your way; its measurements stay as they are</source>
        <translation>用你的方式表述论断；其测量结果保持不变</translation>
    </message>
    <message>
        <source>Add claim…</source>
        <translation>添加论断…</translation>
    </message>
    <message>
        <source>Write a claim of your own: a hypothesis until evidence arrives, unless you pin it</source>
        <translation>写一条你自己的论断：在证据到来之前它是假设，除非你固定它</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Edit claim</source>
        <translation>编辑论断</translation>
    </message>
    <message>
        <source>The claim in your words (empty: the measured wording):</source>
        <translation>用你自己的话表述论断（留空：使用测得的表述）：</translation>
    </message>
    <message>
        <source>Measured: %1&lt;br&gt;</source>
        <translation>测得：%1&lt;br&gt;</translation>
    </message>
    <message>
        <source>Pinned: runs use it as validated.&lt;br&gt;</source>
        <translation>已固定：运行将其当作已验证使用。&lt;br&gt;</translation>
    </message>
    <message>
        <source>Disabled: runs never use it.&lt;br&gt;</source>
        <translation>已禁用：运行从不使用它。&lt;br&gt;</translation>
    </message>
    <message>
        <source>Added by you.&lt;br&gt;</source>
        <translation>由你添加。&lt;br&gt;</translation>
    </message>
</context>
<context>
    <name>crucible::views::LineageView</name>
    <message>
        <source>All candidates</source>
        <translation>所有候选</translation>
    </message>
    <message>
        <source>Only valid</source>
        <translation>仅有效候选</translation>
    </message>
    <message>
        <source>Only elites</source>
        <translation>仅精英候选</translation>
    </message>
    <message>
        <source>Find candidate #</source>
        <translation>查找候选 #</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Fit the whole lineage in view (%1)</source>
        <translation>使整个谱系适应视图大小（%1）</translation>
    </message>
    <message>
        <source>&amp;#9632; reference</source>
        <translation>&amp;#9632; 参考实现</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#d4a017&apos;&gt;&amp;#9711;&lt;/span&gt; sealed</source>
        <translation>&lt;span style=&apos;color:#d4a017&apos;&gt;&amp;#9711;&lt;/span&gt; 已封存</translation>
    </message>
    <message>
        <source>&lt;b&gt;&amp;#9711;&lt;/b&gt; elite</source>
        <translation>&lt;b&gt;&amp;#9711;&lt;/b&gt; 精英</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#e67800&apos;&gt;&amp;#9473;&lt;/span&gt; path to the best</source>
        <translation>&lt;span style=&apos;color:#e67800&apos;&gt;&amp;#9473;&lt;/span&gt; 通往最优的路径</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>This project has no runs yet: start one to grow a lineage.</source>
        <translation>此项目还没有运行：开始一个运行来生成谱系。</translation>
    </message>
    <message>
        <source>All architectures</source>
        <translation>所有架构</translation>
    </message>
    <message>
        <source>No candidates in this run yet.</source>
        <translation>此运行中还没有候选。</translation>
    </message>
    <message>
        <source>No candidate of this run passes the filter (%1 candidates in the run).</source>
        <translation>此运行中没有候选通过筛选（运行中共 %1 个候选）。</translation>
    </message>
    <message>
        <source>%1 of %2 candidates shown</source>
        <translation>显示 %2 个候选中的 %1 个</translation>
    </message>
    <message>
        <source>Select #%1</source>
        <translation>选择 #%1</translation>
    </message>
    <message>
        <source>Compare with parent</source>
        <translation>与父代对比</translation>
    </message>
    <message>
        <source>Expand sub-tree</source>
        <translation>展开子树</translation>
    </message>
    <message>
        <source>Collapse sub-tree</source>
        <translation>折叠子树</translation>
    </message>
    <message>
        <source>Copy candidate id</source>
        <translation>复制候选 ID</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit</source>
        <translation>派生并编辑</translation>
    </message>
    <message>
        <source>#%1 is hidden by the filter.</source>
        <translation>#%1 被筛选隐藏。</translation>
    </message>
    <message>
        <source>#%1 is not in this run.</source>
        <translation>#%1 不在此运行中。</translation>
    </message>
    <message>
        <source>architecture: %1</source>
        <translation>架构：%1</translation>
    </message>
    <message>
        <source>proposer: %1</source>
        <translation>提议器：%1</translation>
    </message>
    <message>
        <source>parents: %1</source>
        <translation>父代：%1</translation>
    </message>
    <message>
        <source>the run&apos;s reference</source>
        <translation>运行的参考实现</translation>
    </message>
    <message>
        <source>sealed</source>
        <translation>已封存</translation>
    </message>
    <message>
        <source>elite of an archive cell</source>
        <translation>归档单元格的精英</translation>
    </message>
    <message>
        <source>Compare the %1 marked candidates</source>
        <translation>对比已标记的 %1 个候选</translation>
    </message>
</context>
<context>
    <name>crucible::views::LlmPreferencesDialog</name>
    <message>
        <source>Language models</source>
        <translation>语言模型</translation>
    </message>
    <message>
        <source>OpenAI-compatible (OpenAI, vLLM, llama.cpp, Ollama, SGLang)</source>
        <translation>OpenAI 兼容（OpenAI、vLLM、llama.cpp、Ollama、SGLang）</translation>
    </message>
    <message>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <source>The name the key is filed under in the system keychain, and the environment variable crucible-cli reads it from. Empty: a server without keys.</source>
        <translation>密钥在系统密钥环中登记的名称，也是 crucible-cli 读取密钥的环境变量。留空：服务器无需密钥。</translation>
    </message>
    <message>
        <source>leave empty to keep the stored key</source>
        <translation>留空以保留已保存的密钥</translation>
    </message>
    <message>
        <source>Stored in the system keychain only; never in the project or a settings file.</source>
        <translation>仅保存在系统密钥环中；绝不写入项目或设置文件。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>USD / M input tokens</source>
        <translation>USD / 百万输入 token</translation>
    </message>
    <message>
        <source>USD / M output tokens</source>
        <translation>USD / 百万输出 token</translation>
    </message>
    <message>
        <source>Add model</source>
        <translation>添加模型</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Key name</source>
        <translation>密钥名称</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Max tokens per reply</source>
        <translation>每次回复的最大 token 数</translation>
    </message>
    <message>
        <source>Requests at once</source>
        <translation>并发请求数</translation>
    </message>
    <message>
        <source>Models (several: a bandit picks each proposal&apos;s, weighing improvement and cost)</source>
        <translation>模型（多个时：由多臂老虎机为每次提议挑选，权衡改进与成本）</translation>
    </message>
    <message>
        <source>Key name: a key needs a name to be filed under (e.g. OPENAI_API_KEY)</source>
        <translation>密钥名称：密钥需要一个登记名称（例如 OPENAI_API_KEY）</translation>
    </message>
</context>
<context>
    <name>crucible::views::MainWindow</name>
    <message>
        <source>Compare with parent</source>
        <translation>与父代对比</translation>
    </message>
    <message>
        <source>Show in lineage</source>
        <translation>在谱系中显示</translation>
    </message>
    <message>
        <source>Copy candidate id</source>
        <translation>复制候选 ID</translation>
    </message>
    <message>
        <source>Copy source</source>
        <translation>复制源代码</translation>
    </message>
    <message>
        <source>Save source as .cu…</source>
        <translation>将源代码另存为 .cu…</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit</source>
        <translation>派生并编辑</translation>
    </message>
    <message>
        <source>Export kernel…</source>
        <translation>导出内核…</translation>
    </message>
    <message>
        <source>Open or create a project first: a task is imported into a project.</source>
        <translation>请先打开或新建一个项目：任务会导入到项目中。</translation>
    </message>
    <message>
        <source>Compare the %1 selected candidates</source>
        <translation>对比所选的 %1 个候选</translation>
    </message>
    <message>
        <source>Select two or more candidates (Ctrl- or Shift-click) to compare them</source>
        <translation>选择两个或更多候选（Ctrl 或 Shift 加点击）以进行对比</translation>
    </message>
    <message>
        <source>The layout is back to its default.</source>
        <translation>布局已恢复为默认。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Recent projects</source>
        <translation>最近的项目</translation>
    </message>
    <message>
        <source>Open &amp;kernel…</source>
        <translation>打开内核(&amp;K)…</translation>
    </message>
    <message>
        <source>&amp;Export kernel…</source>
        <translation>导出内核(&amp;E)…</translation>
    </message>
    <message>
        <source>Write the selected candidate as a .cu with its launcher, a PyTorch extension or a FlashInfer solution (as crucible-cli best --export)</source>
        <translation>将所选候选写出为带启动器的 .cu、PyTorch 扩展或 FlashInfer 方案（同 crucible-cli best --export）</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Fork &amp;&amp; edit</source>
        <translation>派生并编辑(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the selected text, or the selected rows of a table as tab-separated text</source>
        <translation>复制所选文本，或将表格的所选行复制为制表符分隔的文本</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <source>Compare &amp;selected</source>
        <translation>对比所选(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About Crucible</source>
        <translation>关于 Crucible(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>Set as baseline for details</source>
        <translation>设为详情的基线</translation>
    </message>
    <message>
        <source>This build of the workbench has no kernel editor</source>
        <translation>此版本的工作台没有内核编辑器</translation>
    </message>
    <message>
        <source>Open the selected candidate in the kernel editor, as a fork of it</source>
        <translation>在内核编辑器中打开所选候选（作为其派生）</translation>
    </message>
    <message>
        <source>Select a candidate to fork</source>
        <translation>选择一个要派生的候选</translation>
    </message>
    <message>
        <source>Open a .cu file in the kernel editor against the current run</source>
        <translation>在内核编辑器中针对当前运行打开一个 .cu 文件</translation>
    </message>
    <message>
        <source>Open a project and select a run: a kernel joins a run</source>
        <translation>请打开项目并选择一个运行：内核会加入一个运行</translation>
    </message>
    <message>
        <source>This build of the workbench has no kernel editor.</source>
        <translation>此版本的工作台没有内核编辑器。</translation>
    </message>
    <message>
        <source>Candidate #%1 is not in this project.</source>
        <translation>候选 #%1 不在此项目中。</translation>
    </message>
    <message>
        <source>Fork of #%1 (%2, %3)</source>
        <translation>#%1 的派生（%2，%3）</translation>
    </message>
    <message>
        <source>Open a project and select a run first: an opened kernel joins a run.</source>
        <translation>请先打开项目并选择一个运行：打开的内核会加入一个运行。</translation>
    </message>
    <message>
        <source>Cannot open the kernel: %1</source>
        <translation>无法打开内核：%1</translation>
    </message>
    <message>
        <source>%1 is empty: there is no kernel to edit.</source>
        <translation>%1 为空：没有可编辑的内核。</translation>
    </message>
    <message>
        <source>%1 (opened file, joins run %2)</source>
        <translation>%1（打开的文件，加入运行 %2）</translation>
    </message>
    <message>
        <source>Open kernel</source>
        <translation>打开内核</translation>
    </message>
    <message>
        <source>CUDA source (*.cu *.cuh);;All files (*)</source>
        <translation>CUDA 源文件 (*.cu *.cuh);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open kernel</source>
        <translation>无法打开内核</translation>
    </message>
    <message>
        <source>Discard your edits?</source>
        <translation>丢弃您的编辑？</translation>
    </message>
    <message>
        <source>The kernel editor holds edits that were not evaluated. Open another kernel and discard them?</source>
        <translation>内核编辑器中有尚未评估的编辑。要打开另一个内核并丢弃这些编辑吗？</translation>
    </message>
    <message>
        <source>Kept your edits in the kernel editor.</source>
        <translation>已将您的编辑保留在内核编辑器中。</translation>
    </message>
    <message>
        <source>(unknown task)</source>
        <translation>（未知任务）</translation>
    </message>
    <message>
        <source>Save source of #%1</source>
        <translation>保存 #%1 的源代码</translation>
    </message>
    <message>
        <source>CUDA source (*.cu)</source>
        <translation>CUDA 源文件 (*.cu)</translation>
    </message>
    <message>
        <source>Cannot save source</source>
        <translation>无法保存源代码</translation>
    </message>
    <message>
        <source>Saved the source of #%1 to %2.</source>
        <translation>已将 #%1 的源代码保存到 %2。</translation>
    </message>
    <message>
        <source>Clear list</source>
        <translation>清除列表</translation>
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
        <translation>无法打开 %1：文件不存在。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Opened %1: %n run(s).</source>
        <translation>
            <numerusform>已打开 %1：%n 个运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>Read-only: %1.</source>
        <translation>只读：%1。</translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation>无法打开项目</translation>
    </message>
    <message>
        <source>%1 is not a project Crucible can open.</source>
        <translation>%1 不是 Crucible 能打开的项目。</translation>
    </message>
    <message>
        <source>New project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <source>Crucible projects (*.crucible)</source>
        <translation>Crucible 项目 (*.crucible)</translation>
    </message>
    <message>
        <source>Cannot create project</source>
        <translation>无法创建项目</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Crucible projects (*.crucible);;All files (*)</source>
        <translation>Crucible 项目 (*.crucible);;所有文件 (*)</translation>
    </message>
    <message>
        <source>About Crucible</source>
        <translation>关于 Crucible</translation>
    </message>
    <message>
        <source>Nothing selected to copy.</source>
        <translation>没有选中可复制的内容。</translation>
    </message>
    <message>
        <source>No project is open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>A run is in progress: export once it has stopped.</source>
        <translation>有运行正在进行：请在其停止后再导出。</translation>
    </message>
    <message>
        <source>Candidate #%1 is %2: only a valid kernel is exported.</source>
        <translation>候选 #%1 的状态为 %2：只导出有效的内核。</translation>
    </message>
    <message>
        <source>The task of candidate #%1 is not in this project.</source>
        <translation>候选 #%1 的任务不在此项目中。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot export candidate #%1: %2</source>
        <translation>无法导出候选 #%1：%2</translation>
    </message>
    <message>
        <source>cu — the kernel with its host launcher and launch rule</source>
        <translation>cu — 内核及其主机端启动器和启动规则</translation>
    </message>
    <message>
        <source>torch — a PyTorch extension, and the task&apos;s baseline to compare</source>
        <translation>torch — PyTorch 扩展，以及用于对比的任务基线</translation>
    </message>
    <message>
        <source>flashinfer — a FlashInfer-Trace solution</source>
        <translation>flashinfer — FlashInfer-Trace 方案</translation>
    </message>
    <message>
        <source>Export kernel #%1</source>
        <translation>导出内核 #%1</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Export kernel #%1 into</source>
        <translation>将内核 #%1 导出到</translation>
    </message>
    <message>
        <source>Cannot export kernel</source>
        <translation>无法导出内核</translation>
    </message>
    <message>
        <source>Exported #%1: %2</source>
        <translation>已导出 #%1：%2</translation>
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
        <translation>代</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Proposer</source>
        <translation>提议器</translation>
    </message>
    <message>
        <source>Mutation</source>
        <translation>变异</translation>
    </message>
</context>
<context>
    <name>crucible::views::ReviewQueueView</name>
    <message>
        <source>Proposal</source>
        <translation>提议</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>Diff against parent</source>
        <translation>与父代的差异</translation>
    </message>
    <message>
        <source>Note for the verdict (why)</source>
        <translation>评审结论备注（原因）</translation>
    </message>
    <message>
        <source>Accept architecture</source>
        <translation>接受架构</translation>
    </message>
    <message>
        <source>Reject architecture</source>
        <translation>拒绝架构</translation>
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
        <translation>派生并编辑</translation>
    </message>
    <message>
        <source>Open this proposal in the kernel editor, as a fork of it</source>
        <translation>在内核编辑器中打开此提议（作为其派生）</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation>此项目还没有运行。</translation>
    </message>
    <message>
        <source>This run is not gated: new architectures are evaluated without review.</source>
        <translation>此运行无需评审：新架构不经评审即被评估。</translation>
    </message>
    <message>
        <source>No candidates awaiting review in this run.</source>
        <translation>此运行中没有等待评审的候选。</translation>
    </message>
    <message>
        <source>architecture: %1 (%2)</source>
        <translation>架构：%1（%2）</translation>
    </message>
    <message>
        <source>architecture: %1</source>
        <translation>架构：%1</translation>
    </message>
    <message>
        <source>Architecture: %1

%2

No code yet: the model writes it once the architecture is accepted.

Proposer: %3
Mutation: %4
</source>
        <translation>架构：%1

%2

尚无代码：架构被接受后，模型才会编写代码。

提议器：%3
变异：%4
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
        <translation>基因组
%1
描述符
%2

提议器：%3
变异：%4
</translation>
    </message>
    <message>
        <source>Diff (no parent)</source>
        <translation>差异（无父代）</translation>
    </message>
    <message>
        <source>Diff against #%1</source>
        <translation>与 #%1 的差异</translation>
    </message>
</context>
<context>
    <name>crucible::views::RooflineView</name>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Roofline: FLOP/s over arithmetic intensity. Bandwidth: DRAM and L2 traffic as a share of the measured roofs (for tasks with no FLOPs).</source>
        <translation>屋顶线：FLOP/s 与算术强度的关系。带宽：DRAM 与 L2 流量占实测屋顶的比例（适用于没有浮点运算的任务）。</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Wheel: zoom; drag: pan; double-click: reset</source>
        <translation>滚轮：缩放；拖动：平移；双击：重置</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>PNG image…</source>
        <translation>PNG 图像…</translation>
    </message>
    <message>
        <source>SVG image…</source>
        <translation>SVG 图像…</translation>
    </message>
    <message>
        <source>Export roofline</source>
        <translation>导出屋顶线</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>The task&apos;s flops formula is unusable (%1).</source>
        <translation>任务的 FLOPs 公式不可用（%1）。</translation>
    </message>
    <message>
        <source>%1 of %2 valid candidates plotted; not plotted: %3.</source>
        <translation>已绘制 %2 个有效候选中的 %1 个；未绘制：%3。</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>This project has no runs yet.</source>
        <translation>此项目还没有运行。</translation>
    </message>
    <message>
        <source>No profiled candidates in this run yet.</source>
        <translation>此运行中还没有剖析过的候选。</translation>
    </message>
    <message>
        <source>This task does no floating-point work: the bandwidth view shows its kernels.</source>
        <translation>此任务不做浮点运算：带宽视图显示其内核。</translation>
    </message>
    <message>
        <source>No measured ceilings in this project: the roofs appear once the device&apos;s ceilings are measured.</source>
        <translation>此项目中没有实测峰值上限：测得设备的峰值上限后，屋顶才会出现。</translation>
    </message>
    <message>
        <source>Roofs measured on %1.</source>
        <translation>屋顶测于 %1。</translation>
    </message>
    <message>
        <source>Arithmetic intensity (FLOP per DRAM byte)</source>
        <translation>算术强度（每 DRAM 字节的 FLOP）</translation>
    </message>
    <message>
        <source>Achieved %1FLOP/s</source>
        <translation>实际达到 %1FLOP/s</translation>
    </message>
    <message>
        <source>#%1 · gen %2 · %3 · %4 at %5 FLOP/B</source>
        <translation>#%1 · 第 %2 代 · %3 · %4，算术强度 %5 FLOP/B</translation>
    </message>
    <message>
        <source>Bandwidth: share of the measured roofs</source>
        <translation>带宽：占实测屋顶的比例</translation>
    </message>
    <message>
        <source>Bandwidth achieved</source>
        <translation>实际达到的带宽</translation>
    </message>
    <message>
        <source>#%1 · gen %2 · %3 · %4 %5</source>
        <translation>#%1 · 第 %2 代 · %3 · %4 %5</translation>
    </message>
    <message>
        <source> (%1% of the roof)</source>
        <translation>（屋顶的 %1%）</translation>
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
        <translation>中位时间（µs）</translation>
    </message>
    <message>
        <source>% of the measured roof</source>
        <translation>占实测屋顶的 %</translation>
    </message>
    <message>
        <source>Achieved %1B/s</source>
        <translation>实际达到 %1B/s</translation>
    </message>
    <message>
        <source>100% of the roof</source>
        <translation>屋顶的 100%</translation>
    </message>
    <message>
        <source>generation %1</source>
        <translation>第 %1 代</translation>
    </message>
    <message>
        <source>generations %1–%2</source>
        <translation>第 %1–%2 代</translation>
    </message>
    <message>
        <source>reference</source>
        <translation>参考实现</translation>
    </message>
    <message>
        <source>sealed</source>
        <translation>已封存</translation>
    </message>
    <message>
        <source>selected</source>
        <translation>已选中</translation>
    </message>
    <message numerus="yes">
        <source>%n point(s) here:</source>
        <translation>
            <numerusform>此处有 %n 个点：</numerusform>
        </translation>
    </message>
    <message>
        <source> · the run&apos;s reference</source>
        <translation> · 运行的参考实现</translation>
    </message>
    <message>
        <source> · sealed</source>
        <translation> · 已封存</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… 以及另外 %1 个</translation>
    </message>
    <message>
        <source>#%1 · generation %2</source>
        <translation>#%1 · 第 %2 代</translation>
    </message>
    <message>
        <source>%1 at %2 FLOP/B</source>
        <translation>%1，算术强度 %2 FLOP/B</translation>
    </message>
    <message>
        <source>%1 FLOPs (%2), %3 DRAM bytes, median %4</source>
        <translation>%1 FLOPs（%2），%3 DRAM 字节，中位数 %4</translation>
    </message>
    <message>
        <source>SASS counters</source>
        <translation>SASS 计数器</translation>
    </message>
    <message>
        <source>task formula</source>
        <translation>任务公式</translation>
    </message>
    <message>
        <source>%1% of the DRAM roof here</source>
        <translation>此处为 DRAM 屋顶的 %1%</translation>
    </message>
    <message>
        <source>the run&apos;s reference</source>
        <translation>运行的参考实现</translation>
    </message>
    <message>
        <source>Crucible roofline</source>
        <translation>Crucible 屋顶线</translation>
    </message>
    <message>
        <source>
Cannot write %1.</source>
        <translation>
无法写入 %1。</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>a count of candidates, then why they are not plotted</comment>
        <translation>%2（%1 个）</translation>
    </message>
</context>
<context>
    <name>crucible::views::RunControlView</name>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>Review new architectures</source>
        <translation>评审新架构</translation>
    </message>
    <message>
        <source>Review new architectures before evaluating them</source>
        <translation>在评估新架构之前先进行评审</translation>
    </message>
    <message>
        <source>Your own kernels, evaluated first and then tuned; several may compete in one run.
Each needs a launch rule: K.tune.json beside K.cu, a /* crucible-tune {...} */ comment in it, or a tune file (resources/tasks/README.md, &quot;Tunable kernels&quot;).</source>
        <translation>您自己的内核，先评估再调优；一个运行中可以有多个相互竞争。
每个内核都需要启动规则：K.cu 旁的 K.tune.json、其中的 /* crucible-tune {...} */ 注释，或一个调优文件（resources/tasks/README.md，“Tunable kernels”一节）。</translation>
    </message>
    <message>
        <source>Add starting kernel...</source>
        <translation>添加起始内核...</translation>
    </message>
    <message>
        <source>Tune file...</source>
        <translation>调优文件...</translation>
    </message>
    <message>
        <source>Choose the selected kernel&apos;s tune file (parameters, restrictions, launch rule)</source>
        <translation>为所选内核选择调优文件（参数、约束、启动规则）</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <source>Proposer:</source>
        <translation>提议器：</translation>
    </message>
    <message>
        <source>Evaluations:</source>
        <translation>评估次数：</translation>
    </message>
    <message>
        <source>Wall time:</source>
        <translation>墙钟时间：</translation>
    </message>
    <message>
        <source>GPU time:</source>
        <translation>GPU 时间：</translation>
    </message>
    <message>
        <source>Starting kernels:</source>
        <translation>起始内核：</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Best speedup over evaluations</source>
        <translation>最佳加速比随评估次数的变化</translation>
    </message>
    <message>
        <source>evaluations</source>
        <translation>评估次数</translation>
    </message>
    <message>
        <source>best speedup (×)</source>
        <translation>最佳加速比（×）</translation>
    </message>
    <message>
        <source>%1 cannot be chosen: %2</source>
        <translation>无法选择 %1：%2</translation>
    </message>
    <message>
        <source>%1 cannot be chosen: %2 %3</source>
        <translation>无法选择 %1：%2 %3</translation>
    </message>
    <message>
        <source> with %1</source>
        <translation>，附带 %1</translation>
    </message>
    <message>
        <source>%1: checking...</source>
        <translation>%1：正在检查...</translation>
    </message>
    <message>
        <source>%1: fits the task</source>
        <translation>%1：符合任务</translation>
    </message>
    <message>
        <source>%1: does not fit: %2</source>
        <translation>%1：不符合：%2</translation>
    </message>
    <message>
        <source>Add starting kernel</source>
        <translation>添加起始内核</translation>
    </message>
    <message>
        <source>CUDA kernels (*.cu *.cuh);;All files (*)</source>
        <translation>CUDA 内核 (*.cu *.cuh);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Tune file of %1</source>
        <translation>%1 的调优文件</translation>
    </message>
    <message>
        <source>Tune files (*.json);;All files (*)</source>
        <translation>调优文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>This project has no tasks: add a task before starting a run.</source>
        <translation>此项目没有任务：开始运行前请先添加任务。</translation>
    </message>
    <message>
        <source>No proposer is available.</source>
        <translation>没有可用的提议器。</translation>
    </message>
    <message>
        <source>A run is in progress: stop it first.</source>
        <translation>有运行正在进行：请先停止它。</translation>
    </message>
    <message>
        <source>Starting kernels cannot be checked here.</source>
        <translation>此处无法检查起始内核。</translation>
    </message>
    <message>
        <source>Checking the starting kernels against the task...</source>
        <translation>正在对照任务检查起始内核...</translation>
    </message>
    <message>
        <source>Starting kernel &apos;%1&apos; cannot start this run: %2</source>
        <translation>起始内核“%1”无法开始此运行：%2</translation>
    </message>
    <message>
        <source>%1 (built-in)</source>
        <translation>%1（内置）</translation>
    </message>
    <message>
        <source>No run yet.</source>
        <translation>还没有运行。</translation>
    </message>
    <message>
        <source>%1 of %2 evaluations</source>
        <translation>%1 / %2 次评估</translation>
    </message>
    <message>
        <source>%1 evaluations</source>
        <translation>%1 次评估</translation>
    </message>
    <message>
        <source>best %1</source>
        <translation>最佳 %1</translation>
    </message>
    <message>
        <source>no valid candidate yet</source>
        <translation>尚无有效候选</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>剩余 %1</translation>
    </message>
    <message>
        <source>Add a kernel of your own (.cu) to the run</source>
        <translation>向运行添加您自己的内核（.cu）</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分钟 %2 秒</translation>
    </message>
    <message>
        <source>Reference kernel...</source>
        <translation>参考内核...</translation>
    </message>
    <message>
        <source>Task&apos;s reference</source>
        <translation>任务的参考实现</translation>
    </message>
    <message>
        <source>Measure the run against the task&apos;s latest seal, or its baseline when it has none</source>
        <translation>以任务最新的封存（没有封存时用其基线）作为此运行的参考实现</translation>
    </message>
    <message>
        <source>Reference:</source>
        <translation>参考实现：</translation>
    </message>
    <message>
        <source>the chosen task&apos;s spec is not known here</source>
        <translation>所选任务的规格在此处未知</translation>
    </message>
    <message>
        <source>The task&apos;s latest seal, or its baseline when it has none</source>
        <translation>任务最新的封存；没有封存时用其基线</translation>
    </message>
    <message>
        <source>%1: fits the task; validated before the run measures against it</source>
        <translation>%1：符合任务；运行以它为参考之前会先验证</translation>
    </message>
    <message>
        <source>Reference kernel</source>
        <translation>参考内核</translation>
    </message>
    <message>
        <source>A reference kernel cannot be checked here.</source>
        <translation>此处无法检查参考内核。</translation>
    </message>
    <message>
        <source>Checking the reference kernel against the task...</source>
        <translation>正在对照任务检查参考内核...</translation>
    </message>
    <message>
        <source>Reference kernel &apos;%1&apos; cannot be this run&apos;s reference: %2</source>
        <translation>参考内核“%1”不能作为此运行的参考实现：%2</translation>
    </message>
    <message>
        <source>Measure the run against a kernel of your own (.cu with its launch rule, as a starting kernel) instead of the task&apos;s seal or baseline</source>
        <translation>以你自己的内核（.cu 及其启动规则，格式同起始内核）作为此运行的参考实现，而不用任务的封存或基线</translation>
    </message>
</context>
<context>
    <name>crucible::views::RunsModel</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Proposer</source>
        <translation>提议器</translation>
    </message>
    <message>
        <source>Evaluations</source>
        <translation>评估次数</translation>
    </message>
    <message>
        <source>Best speedup</source>
        <translation>最佳加速比</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
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
        <translation>任务 #%1</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Candidate</source>
        <translation>候选</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Sealed</source>
        <translation>封存时间</translation>
    </message>
    <message>
        <source>Timed again when the kernel was sealed (extended validation), beside the reference; the candidate&apos;s own evaluation (table, diff, details) was a separate measurement and can differ by a few per cent.</source>
        <translation>封存内核时与参考实现一同重新计时（扩展验证）；候选自身的评估（表格、差异、详情）是另一次测量，两者可能相差几个百分点。</translation>
    </message>
    <message>
        <source>Speedup at seal</source>
        <translation>封存时加速比</translation>
    </message>
    <message>
        <source>Median at seal</source>
        <translation>封存时中位数</translation>
    </message>
</context>
<context>
    <name>crucible::views::ShortcutsDialog</name>
    <message>
        <source>anywhere in the window</source>
        <translation>窗口内任意位置</translation>
    </message>
    <message>
        <source>where its view has focus</source>
        <translation>其视图获得焦点时</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>作用范围</translation>
    </message>
</context>
<context>
    <name>crucible::views::SourceFile</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>crucible::views::TableColumns</name>
    <message>
        <source>Fit columns to contents</source>
        <translation>列宽适应内容</translation>
    </message>
    <message>
        <source>Reset columns</source>
        <translation>重置列</translation>
    </message>
</context>
<context>
    <name>crucible::views::TimingPlot</name>
    <message>
        <source>: no timing samples stored</source>
        <translation>：未保存计时样本</translation>
    </message>
    <message numerus="yes">
        <source>: %n sample(s), min %1, quartiles %2 / %3 / %4, max %5</source>
        <translation>
            <numerusform>：%n 个样本，最小 %1，四分位数 %2 / %3 / %4，最大 %5</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s) left of the axis, down to %1</source>
        <translation>
            <numerusform>%n 个样本位于坐标轴左侧，最低至 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s) right of the axis, up to %1</source>
        <translation>
            <numerusform>%n 个样本位于坐标轴右侧，最高至 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>No timing samples stored.</source>
        <translation>未保存计时样本。</translation>
    </message>
    <message>
        <source>no samples stored</source>
        <translation>未保存样本</translation>
    </message>
</context>
<context>
    <name>crucible::views::VaultView</name>
    <message>
        <source>Validation report</source>
        <translation>验证报告</translation>
    </message>
    <message>
        <source>Performance report</source>
        <translation>性能报告</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
    <message>
        <source>Validated again</source>
        <translation>重新验证</translation>
    </message>
    <message>
        <source>Export .cu…</source>
        <translation>导出 .cu…</translation>
    </message>
    <message>
        <source>Validate again on this GPU</source>
        <translation>在此 GPU 上重新验证</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>未打开项目。</translation>
    </message>
    <message>
        <source>No sealed kernels yet: a candidate is sealed when it passes correctness and performance validation.</source>
        <translation>还没有封存的内核：候选通过正确性与性能验证后即被封存。</translation>
    </message>
    <message>
        <source>Seal #%1: candidate #%2 of run #%3, sealed %4
Measured on %5 (%6), driver %7, CUDA runtime %8, NVRTC %9, SM %10 MHz, memory %11 MHz%12</source>
        <translation>封存 #%1：运行 #%3 的候选 #%2，封存于 %4
测量环境：%5（%6），驱动 %7，CUDA 运行时 %8，NVRTC %9，SM %10 MHz，显存 %11 MHz%12</translation>
    </message>
    <message>
        <source>, host %1</source>
        <translation>，主机 %1</translation>
    </message>
    <message>
        <source>// The sealed candidate #%1 is missing from the project.</source>
        <translation>// 封存的候选 #%1 在项目中缺失。</translation>
    </message>
    <message>
        <source>%1 %2, here %3</source>
        <translation>%1 %2，此处为 %3</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>driver</source>
        <translation>驱动</translation>
    </message>
    <message>
        <source>CUDA runtime</source>
        <translation>CUDA 运行时</translation>
    </message>
    <message>
        <source>Select a seal</source>
        <translation>选择一个封存</translation>
    </message>
    <message>
        <source>Finding out which GPU this machine has…</source>
        <translation>正在查明本机的 GPU…</translation>
    </message>
    <message>
        <source>The figures above were measured on the hardware named in the fingerprint.</source>
        <translation>以上数据测于指纹中所列的硬件。</translation>
    </message>
    <message>
        <source>Measured on this machine&apos;s hardware (GPU, driver and CUDA as here).</source>
        <translation>测于本机硬件（GPU、驱动和 CUDA 与此处相同）。</translation>
    </message>
    <message>
        <source>This seal was measured on this GPU, driver and CUDA: its figures hold here.</source>
        <translation>此封存测于此 GPU、驱动和 CUDA：其数据在此处有效。</translation>
    </message>
    <message>
        <source>Measured on other hardware than this machine&apos;s: %1.</source>
        <translation>测于与本机不同的硬件：%1。</translation>
    </message>
    <message>
        <source>Validate, time and profile the sealed kernel on this GPU; the new figures are kept beside the sealed ones</source>
        <translation>在此 GPU 上验证、计时并剖析封存的内核；新数据与封存时的数据并列保存</translation>
    </message>
    <message>
        <source>not timed</source>
        <translation>未计时</translation>
    </message>
    <message>
        <source>%1 us, %2x the reference</source>
        <translation>%1 us，为参考实现的 %2x</translation>
    </message>
    <message>
        <source>Sealed %1 on %2 (%3), driver %4, CUDA %5: %6</source>
        <translation>封存于 %1，GPU %2（%3），驱动 %4，CUDA %5：%6</translation>
    </message>
    <message>
        <source>Not validated again on other hardware yet.</source>
        <translation>尚未在其他硬件上重新验证。</translation>
    </message>
    <message>
        <source>Again %1 on %2 (%3), driver %4, CUDA %5: %6, %7 (candidate #%8)</source>
        <translation>重新验证于 %1，GPU %2（%3），驱动 %4，CUDA %5：%6，%7（候选 #%8）</translation>
    </message>
    <message>
        <source>Select the seal first: its kernel is read off the GUI thread while a run is in progress.</source>
        <translation>请先选择该封存：运行进行中时，其内核在 GUI 线程之外读取。</translation>
    </message>
    <message>
        <source>The sealed candidate #%1 is missing from the project.</source>
        <translation>封存的候选 #%1 在项目中缺失。</translation>
    </message>
    <message>
        <source>Copy source</source>
        <translation>复制源代码</translation>
    </message>
    <message>
        <source>Fork &amp;&amp; edit</source>
        <translation>派生并编辑</translation>
    </message>
    <message>
        <source>Export kernel (.cu, PyTorch, FlashInfer)…</source>
        <translation>导出内核（.cu、PyTorch、FlashInfer）…</translation>
    </message>
    <message>
        <source>Export sealed kernel</source>
        <translation>导出封存的内核</translation>
    </message>
    <message>
        <source>CUDA source (*.cu)</source>
        <translation>CUDA 源文件 (*.cu)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Copy failed</source>
        <translation>复制失败</translation>
    </message>
    <message>
        <source>Seal #%1 is not in this project.</source>
        <translation>封存 #%1 不在此项目中。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>crucible::views::ViewDocks</name>
    <message>
        <source>Run control</source>
        <translation>运行控制</translation>
    </message>
    <message>
        <source>Lineage</source>
        <translation>谱系</translation>
    </message>
    <message>
        <source>Archive map</source>
        <translation>归档图</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Review queue</source>
        <translation>评审队列</translation>
    </message>
    <message>
        <source>Knowledge</source>
        <translation>知识库</translation>
    </message>
    <message>
        <source>Vault</source>
        <translation>封存库</translation>
    </message>
    <message>
        <source>Kernel editor</source>
        <translation>内核编辑器</translation>
    </message>
</context>
<context>
    <name>crucible::views::WelcomePage</name>
    <message>
        <source>&lt;h2&gt;Crucible&lt;/h2&gt;&lt;p&gt;Evolve, validate and seal GPU kernels.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Crucible&lt;/h2&gt;&lt;p&gt;演化、验证并封存 GPU 内核。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Open project…</source>
        <translation>打开项目…</translation>
    </message>
    <message>
        <source>New project…</source>
        <translation>新建项目…</translation>
    </message>
    <message>
        <source>Open the sample project</source>
        <translation>打开示例项目</translation>
    </message>
    <message>
        <source>Import a task…</source>
        <translation>导入任务…</translation>
    </message>
    <message>
        <source>Add a task spec (.json) to a project: opens or creates one first when none is open</source>
        <translation>向项目添加任务规格（.json）：若未打开项目，会先打开或新建一个</translation>
    </message>
    <message>
        <source>Recent projects:</source>
        <translation>最近的项目：</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <source>This installation has no sample project</source>
        <translation>此安装没有示例项目</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>A workbench that evolves GPU kernels.</source>
        <translation>一个演化 GPU 内核的工作台。</translation>
    </message>
    <message>
        <source>Print the version and exit.</source>
        <translation>打印版本号并退出。</translation>
    </message>
    <message>
        <source>Open PROJECT, render the main window to the PNG &lt;file&gt; and exit.</source>
        <translation>打开 PROJECT，将主窗口渲染为 PNG 文件 &lt;file&gt; 后退出。</translation>
    </message>
    <message>
        <source>With --screenshot: render only the view &lt;name&gt; (lineage, diff, roofline, knowledge, archive, runcontrol, review, vault, editor, details, compare), with the best valid candidate of the newest run selected (editor: forked into the kernel editor and compiled; details: every figure against its parent or the reference; compare: the two side by side).</source>
        <translation>与 --screenshot 一起使用：只渲染视图 &lt;name&gt;（lineage、diff、roofline、knowledge、archive、runcontrol、review、vault、editor、details、compare），并选中最新运行中最优的有效候选（editor：派生到内核编辑器并编译；details：每项指标对比其父代或参考实现；compare：两者并排）。</translation>
    </message>
    <message>
        <source>With --screenshot: show run &lt;id&gt; instead of the newest run.</source>
        <translation>与 --screenshot 一起使用：显示运行 &lt;id&gt;，而非最新运行。</translation>
    </message>
    <message>
        <source>With --screenshot: render at &lt;WxH&gt; pixels (e.g. 1366x768, 1920x1080) instead of 1600x1000 (the window) or 1400x900 (a view).</source>
        <translation>与 --screenshot 一起使用：以 &lt;WxH&gt; 像素渲染（例如 1366x768、1920x1080），而非 1600x1000（窗口）或 1400x900（视图）。</translation>
    </message>
    <message>
        <source>The project file (.crucible) to open.</source>
        <translation>要打开的项目文件（.crucible）。</translation>
    </message>
    <message>
        <source>this window has no kernel editor</source>
        <translation>此窗口没有内核编辑器</translation>
    </message>
    <message>
        <source>the run has no valid candidate to open in the editor</source>
        <translation>该运行没有可在编辑器中打开的有效候选</translation>
    </message>
    <message>
        <source>the editor&apos;s compile of candidate #%1 did not finish within %2 s</source>
        <translation>编辑器对候选 #%1 的编译未在 %2 s 内完成</translation>
    </message>
    <message>
        <source>this window has no details view</source>
        <translation>此窗口没有详情视图</translation>
    </message>
    <message>
        <source>the run has no valid candidate with a parent or a reference to compare it with</source>
        <translation>该运行没有带父代或参考实现可供对比的有效候选</translation>
    </message>
    <message>
        <source>no view named &quot;%1&quot; in this build; the views are: %2</source>
        <translation>此版本中没有名为“%1”的视图；可用视图为：%2</translation>
    </message>
</context>
</TS>
