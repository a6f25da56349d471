// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The engine: one thread per simulated function executes the hardware's
 * work. Register writes are plain stores into the register window, so
 * the thread finds new work by looking: it polls while there is work,
 * and backs off to sleeping when the function is idle.
 */
#include <linux/delay.h>
#include <linux/sched.h>

#include "sim.h"

/*
 * Idle polls ~10 us apart for about 20 ms after the last work, then ~1 ms
 * apart. A driver polling a register for 10 ms (the stock driver's budget
 * for a CQP command before the CCQ exists) is answered within the budget
 * even across the pauses of its bring-up, and an idle function costs a
 * wake-up a millisecond.
 */
#define SIM_FAST_POLLS	2000

/**
 * sim_engine_step - look for new work once and do it
 * @sdev: the simulated function
 *
 * Return: true if there was work.
 */
bool sim_engine_step(struct sim_dev *sdev)
{
	bool work = sim_regs_poll(sdev);

	return sim_fault_post_aes(sdev) || work;
}

static int sim_engine_thread(void *data)
{
	struct sim_dev *sdev = data;
	unsigned int idle = 0;
	bool work;

	complete(&sdev->engine_running);
	while (!kthread_should_stop()) {
		/* One thread at a time does the work; the others stand by. */
		work = false;
		if (mutex_trylock(&sdev->engine_lock)) {
			work = sim_engine_step(sdev);
			mutex_unlock(&sdev->engine_lock);
		}
		if (work) {
			idle = 0;
			cond_resched();
			continue;
		}
		if (idle < SIM_FAST_POLLS) {
			idle++;
			usleep_range(10, 20);
		} else {
			usleep_range(1000, 2000);
		}
	}
	return 0;
}

/**
 * sim_engine_start - start the function's engine threads
 * @sdev: the simulated function
 *
 * Silicon works beside the CPUs, whatever they do: a driver busy-waiting
 * for a register (the stock driver gives a polled CQP command 10 ms, in a
 * kernel that will not preempt it) must not keep the engine from running.
 * So the engine is one thread on each CPU (up to SIM_MAX_ENGINES), taking
 * turns at the same work.
 *
 * Return: 0 or a negative errno; nothing is left running on error.
 */
int sim_engine_start(struct sim_dev *sdev)
{
	unsigned int cpu, n = 0;
	struct task_struct *t;

	mutex_init(&sdev->engine_lock);
	for_each_online_cpu(cpu) {
		if (n == SIM_MAX_ENGINES)
			break;
		init_completion(&sdev->engine_running);
		t = kthread_create(sim_engine_thread, sdev, "irdma_sim%u/%u",
				   sdev->id, cpu);
		if (IS_ERR(t)) {
			sim_engine_stop(sdev);
			return PTR_ERR(t);
		}
		kthread_bind(t, cpu);
		sdev->engine[n++] = t;
		wake_up_process(t);
		/* A driver may poll for an answer within 10 ms of the plug. */
		wait_for_completion(&sdev->engine_running);
	}
	return 0;
}

/**
 * sim_engine_stop - stop the function's engine threads
 * @sdev: the simulated function
 */
void sim_engine_stop(struct sim_dev *sdev)
{
	int i;

	for (i = 0; i < SIM_MAX_ENGINES; i++) {
		if (!sdev->engine[i])
			continue;
		kthread_stop(sdev->engine[i]);
		sdev->engine[i] = NULL;
	}
}
