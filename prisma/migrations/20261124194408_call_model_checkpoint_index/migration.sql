-- CreateIndex
CREATE INDEX "Call_modelId_checkpointStep_idx" ON "Call"("modelId", "checkpointStep");
