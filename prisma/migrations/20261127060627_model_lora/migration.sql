-- AlterTable
ALTER TABLE "Model" ADD COLUMN     "lora" JSONB;
