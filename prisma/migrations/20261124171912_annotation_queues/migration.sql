-- CreateTable
CREATE TABLE "AnnotationQueue" (
    "id" UUID NOT NULL,
    "projectId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "instructions" TEXT NOT NULL DEFAULT '',
    "displayFields" TEXT[],
    "annotationsPerItem" INTEGER NOT NULL DEFAULT 1,
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "AnnotationQueue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnnotationQueueSpec" (
    "queueId" UUID NOT NULL,
    "specId" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "required" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "AnnotationQueueSpec_pkey" PRIMARY KEY ("queueId","specId")
);

-- CreateTable
CREATE TABLE "AnnotationQueueAnnotator" (
    "queueId" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnotationQueueAnnotator_pkey" PRIMARY KEY ("queueId","userId")
);

-- CreateTable
CREATE TABLE "AnnotationQueueItem" (
    "id" UUID NOT NULL,
    "seq" SERIAL NOT NULL,
    "queueId" UUID NOT NULL,
    "callId" UUID NOT NULL,
    "addedById" UUID NOT NULL,
    "completedCount" INTEGER NOT NULL DEFAULT 0,
    "claimedById" UUID,
    "claimExpiresAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "deletedAt" TIMESTAMPTZ(3),

    CONSTRAINT "AnnotationQueueItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AnnotationProgress" (
    "id" UUID NOT NULL,
    "queueId" UUID NOT NULL,
    "itemId" UUID NOT NULL,
    "annotatorId" UUID NOT NULL,
    "state" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AnnotationProgress_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AnnotationQueue_projectId_createdAt_idx" ON "AnnotationQueue"("projectId", "createdAt");

-- CreateIndex
CREATE INDEX "AnnotationQueueAnnotator_userId_idx" ON "AnnotationQueueAnnotator"("userId");

-- CreateIndex
CREATE INDEX "AnnotationQueueItem_queueId_seq_idx" ON "AnnotationQueueItem"("queueId", "seq");

-- CreateIndex
CREATE INDEX "AnnotationQueueItem_claimedById_queueId_idx" ON "AnnotationQueueItem"("claimedById", "queueId");

-- CreateIndex
CREATE UNIQUE INDEX "AnnotationQueueItem_queueId_callId_key" ON "AnnotationQueueItem"("queueId", "callId");

-- CreateIndex
CREATE INDEX "AnnotationProgress_queueId_annotatorId_idx" ON "AnnotationProgress"("queueId", "annotatorId");

-- CreateIndex
CREATE UNIQUE INDEX "AnnotationProgress_itemId_annotatorId_key" ON "AnnotationProgress"("itemId", "annotatorId");

-- AddForeignKey
ALTER TABLE "AnnotationQueue" ADD CONSTRAINT "AnnotationQueue_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationQueueSpec" ADD CONSTRAINT "AnnotationQueueSpec_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationQueueSpec" ADD CONSTRAINT "AnnotationQueueSpec_specId_fkey" FOREIGN KEY ("specId") REFERENCES "AnnotationSpec"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationQueueAnnotator" ADD CONSTRAINT "AnnotationQueueAnnotator_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationQueueAnnotator" ADD CONSTRAINT "AnnotationQueueAnnotator_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationQueueItem" ADD CONSTRAINT "AnnotationQueueItem_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "AnnotationQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationQueueItem" ADD CONSTRAINT "AnnotationQueueItem_callId_fkey" FOREIGN KEY ("callId") REFERENCES "Call"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AnnotationProgress" ADD CONSTRAINT "AnnotationProgress_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "AnnotationQueueItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;
